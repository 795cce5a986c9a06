import FakeGithub
import Foundation
import HTTPServer
import HTTPTestSupport
import RemotePipeline
import StreamCore
import XCTest

@testable import ServiceApp

/// A remote pipeline is a Publisher: the seed's pipeline written on the client side, its lookup
/// on a real service (in-process, looking up the fake GitHub), with Combine's demand and cancel
/// on the wire.
final class RemotePipelineTests: RemotePipelineTestCase {
    /// `keystrokes.throttle(…, latest: true).removeDuplicates()` on the client's virtual
    /// clock, feeding the remote `github-user` pipeline.
    func testTheSeedsPipelineWithTheLookupOnTheServer() throws {
        try startService()
        let scheduler = DispatchQueue.test
        let keystrokes = PassthroughSubject<String, Never>()
        let recorder = EventRecorder()
        RemotePipeline(url: url, pipeline: "github-user")
            .events(for: keystrokes.throttle(for: .milliseconds(500), scheduler: scheduler, latest: true).removeDuplicates())
            .subscribe(recorder)
        XCTAssertEqual(recorder.waitFor { $0.type == "hello" }?.pipeline, "github-user")

        // "h" after a quiet period goes at once; "he" and "hec" within its window: the latest
        // of them goes when the window ends.
        keystrokes.send("h")
        scheduler.advance()
        recorder.waitFor { $0.type == "result" && $0.query == "h" }
        keystrokes.send("he")
        keystrokes.send("hec")
        scheduler.advance(by: .milliseconds(499))
        XCTAssertEqual(fake.requests.count, 0, "nothing before the window ends")
        scheduler.advance(by: .milliseconds(1))
        let hec = recorder.waitFor { $0.type == "result" && $0.query == "hec" }
        XCTAssertEqual(hec?.status, "found")
        XCTAssertEqual(hec?.users.map(\.login), ["hec"])

        // Typed right after a delivery: held, and only the latest of the window goes.
        keystrokes.send("heck")
        keystrokes.send("heckj")
        scheduler.advance(by: .milliseconds(500))
        let heckj = recorder.waitFor { $0.type == "result" && $0.query == "heckj" }
        XCTAssertEqual(heckj?.users.first?.publicRepos, 69)

        // The same value again after a pause: removeDuplicates drops it; then a new value.
        scheduler.advance(by: .seconds(1))
        keystrokes.send("heckj")
        scheduler.advance(by: .seconds(1))
        keystrokes.send("hec")
        scheduler.advance()
        XCTAssertTrue(waitUntil(timeout: 10) { recorder.events.filter { $0.type == "result" && $0.query == "hec" }.count == 2 })

        let results = recorder.events.filter { $0.type == "result" }
        XCTAssertEqual(results.map(\.query), ["h", "hec", "heckj", "hec"])
        XCTAssertEqual(results.map(\.status), ["too_short", "found", "found", "found"])
        XCTAssertEqual(fake.requests.compactMap(\.login), ["hec", "heckj"], "heck never left the client; the second hec came from the cache")
        let activity = recorder.events.filter { $0.type == "activity" }.compactMap(\.active)
        XCTAssertEqual(activity, [true, false, true, false], "one pair per upstream lookup")
        XCTAssertNil(recorder.completion)
    }

    /// Demand is Combine's: with a demand of 1 only the `hello` comes, however much the
    /// server has ready; each further request lets exactly that many more through.
    func testDemandOfOneThenMore() throws {
        try startService()
        let heldBefore = try metric("mux_events_held")
        let keystrokes = PassthroughSubject<String, Never>()
        let recorder = EventRecorder(demand: .max(1))
        RemotePipeline(url: url, pipeline: "github-user").events(for: keystrokes).subscribe(recorder)
        recorder.waitFor { $0.type == "hello" }

        keystrokes.send("heck")
        XCTAssertTrue(waitUntil(timeout: 10) { ((try? self.metric("mux_events_held")) ?? 0) - heldBefore >= 3 },
                      "activity, result and activity wait on the server")
        XCTAssertEqual(recorder.events.map(\.type), ["hello"], "exactly one event until more is requested")

        recorder.request(.max(1))
        XCTAssertTrue(waitUntil(timeout: 10) { ((try? self.metric("mux_events_held")) ?? 0) - heldBefore == 2 })
        XCTAssertTrue(waitUntil(timeout: 10) { recorder.events.count == 2 })
        XCTAssertEqual(recorder.events.last?.active, true)

        recorder.request(.max(4))
        recorder.waitFor { $0.type == "activity" && $0.active == false }
        XCTAssertEqual(recorder.events.map(\.type), ["hello", "activity", "result", "activity"])
        XCTAssertEqual(recorder.events[2].users.map(\.login), ["heck"])
        XCTAssertTrue(waitUntil { (try? self.metric("mux_events_held")) == heldBefore }, "nothing held any more")

        // Two units of demand left: the next lookup's first two events come, the third waits.
        keystrokes.send("heckj")
        recorder.waitFor { $0.type == "result" && $0.query == "heckj" }
        XCTAssertTrue(waitUntil(timeout: 10) { ((try? self.metric("mux_events_held")) ?? 0) - heldBefore == 1 })
        XCTAssertEqual(recorder.events.count, 6)
    }

    /// `cancel()` is a wire `cancel`: the lookup in flight is cancelled upstream (the fake's
    /// connection closes long before its slow answer) and nothing more arrives, while the
    /// socket, shared with another subscription, goes on.
    func testCancelMidLookup() throws {
        try startService()
        fake.setFault(.delay(.milliseconds(2_500)), for: "heck")
        let liveBefore = try metric("mux_subscriptions")
        let connection = RemotePipelineConnection(url: url)
        let user = EventRecorder()
        let keystrokes = PassthroughSubject<String, Never>()
        RemotePipeline(connection: connection, pipeline: "github-user").events(for: keystrokes).subscribe(user)
        let form = EventRecorder()
        let fields = PassthroughSubject<RemotePipelineMessage, Never>()
        RemotePipeline(connection: connection, pipeline: "form").events(for: fields).subscribe(form)
        form.waitFor { $0.type == "hello" }
        user.waitFor { $0.type == "hello" }

        keystrokes.send("heck")
        user.waitFor { $0.active == true }
        XCTAssertTrue(waitUntil { self.fake.requestCount(for: "heck") == 1 })
        let closedBefore = fake.connectionsClosed
        let cancelled = Date()
        user.cancel()
        XCTAssertTrue(waitUntil(timeout: 2) { self.fake.connectionsClosed > closedBefore }, "the upstream transfer was not removed")
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 2.5, "removed before the slow answer was due")
        XCTAssertTrue(waitUntil { (try? self.metric("mux_subscriptions")) == liveBefore + 1 }, "the instance is torn down, the form's lives")
        let seen = user.events.count

        // The socket goes on for the form.
        fields.send(RemotePipelineMessage(json: #"{"type":"submit"}"#)!)
        XCTAssertTrue(form.waitFor { $0.json.contains("not_ready") } != nil)
        // Past the time the slow answer would have come: nothing more for the cancelled one.
        _ = waitUntil(timeout: 3) { Date().timeIntervalSince(cancelled) > 3 }
        XCTAssertEqual(user.events.count, seen, "nothing after cancel: \(user.events.dropFirst(seen))")
        XCTAssertNil(user.completion, "no completion after a cancel")
        XCTAssertEqual(fake.requestCount(for: "heck"), 1)
        connection.close()
        XCTAssertEqual(form.waitForCompletion(), .failure(.connectionLost))
    }

    /// The server going away fails the publisher with the typed error.
    func testTheServerGoingAwayFailsThePublisher() throws {
        try startService()
        let recorder = EventRecorder()
        RemotePipeline(url: url, pipeline: "github-user").events(for: Empty<String, Never>(completeImmediately: false)).subscribe(recorder)
        recorder.waitFor { $0.type == "hello" }
        stopService()
        XCTAssertEqual(recorder.waitForCompletion(), .failure(.connectionLost))
    }

    func testNoServerFailsWithConnectFailed() throws {
        let port = try unusedLoopbackPort()
        let recorder = EventRecorder()
        RemotePipeline(url: try XCTUnwrap(URL(string: "ws://127.0.0.1:\(port)/ws/pipelines")), pipeline: "github-user")
            .events(for: Just("heck")).subscribe(recorder)
        guard case .failure(.connectFailed(.connectFailed(.systemCall(_, let code))))? = recorder.waitForCompletion() else {
            return XCTFail("\(String(describing: recorder.completion))")
        }
        XCTAssertEqual(code, ECONNREFUSED)
    }

    func testRefusalsAndFailuresCarryTheServersCode() throws {
        try startService { $0.mux.maxPendingEvents = 2 }
        let unknown = EventRecorder()
        RemotePipeline(url: url, pipeline: "no-such-pipeline").events(for: Just("x")).subscribe(unknown)
        guard case .failure(.refused(let code, _))? = unknown.waitForCompletion() else {
            return XCTFail("\(String(describing: unknown.completion))")
        }
        XCTAssertEqual(code, "unknown_pipeline")

        // form sends hello, two validations and a submit answer at once: with a demand of 1,
        // three wait, one more than mux.maxPendingEvents.
        let slow = EventRecorder(demand: .max(1))
        RemotePipeline(url: url, pipeline: "form").events(for: Empty<String, Never>(completeImmediately: false)).subscribe(slow)
        guard case .failure(.failed(let failure, _))? = slow.waitForCompletion() else {
            return XCTFail("\(String(describing: slow.completion))")
        }
        XCTAssertEqual(failure, "overflow")
        XCTAssertEqual(slow.events.map(\.type), ["hello"])
    }

    /// Several pipelines over one socket: one WebSocket session on the server, each
    /// subscription its own instance.
    func testSubscriptionsShareOneSocket() throws {
        try startService()
        let sessionsBefore = try metric("websocket_sessions_open")
        let connection = RemotePipelineConnection(url: url)
        let recorders = ["github-user", "github-search", "form", "github-user"].map { name in
            let recorder = EventRecorder()
            RemotePipeline(connection: connection, pipeline: name).events(for: Empty<String, Never>(completeImmediately: false))
                .subscribe(recorder)
            return (name, recorder)
        }
        for (name, recorder) in recorders { XCTAssertEqual(recorder.waitFor { $0.type == "hello" }?.pipeline, name) }
        XCTAssertEqual(try metric("websocket_sessions_open") - sessionsBefore, 1)
        XCTAssertEqual(try metric("mux_subscriptions"), 4)
        for (_, recorder) in recorders { recorder.cancel() }
        XCTAssertTrue(waitUntil { (try? self.metric("mux_subscriptions")) == 0 })
        connection.close()
        XCTAssertTrue(waitUntil { (try? self.metric("websocket_sessions_open")) == sessionsBefore })
    }
}

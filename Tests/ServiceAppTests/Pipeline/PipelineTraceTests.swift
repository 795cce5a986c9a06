import FakeGithub
import Foundation
import GithubProxy
import HTTPTestSupport
@testable import ServiceApp
import StreamCore
import XCTest

/// `?trace=1` on virtual time: the seed's username trace gives the exact events per stage, a
/// superseded lookup shows its cancel, and tracing changes nothing else the pipeline sends.
final class PipelineTraceTests: XCTestCase {
    private var fake: FakeGithub!
    private var baseURL: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        fake = FakeGithub()
        baseURL = try fake.start()
    }

    override func tearDown() {
        fake.stop()
        super.tearDown()
    }

    /// Everything one pipeline wrote, in order: its events' JSON and the trace lines.
    private final class Log: @unchecked Sendable {
        // Sendable: `lines` is guarded by `lock`.
        private let lock = NSLock()
        private var stored: [String] = []
        func append(_ line: String) { lock.withLock { stored.append(line) } }
        var lines: [String] { lock.withLock { stored } }
    }

    /// One pipeline on virtual time, writing its events (and, when tracing, its traces) to `log`.
    private struct Session {
        let scheduler = DispatchQueue.test
        let log = Log()
        let pipeline: GithubUserPipeline

        init(baseURL: URL, tracing: Bool) {
            let client = GithubClient(configuration: .init(baseURL: baseURL))  // a cold cache per session
            let log = self.log
            let tracer = tracing ? PipelineTracer(scheduler: scheduler.eraseToAnyScheduler()) { log.append($0) } : nil
            pipeline = GithubUserPipeline(
                client: client, throttle: .milliseconds(500), scheduler: scheduler.eraseToAnyScheduler(), tracer: tracer,
                write: { log.append($0.json) }
            )
        }

        /// Sends `value` and lets the throttle pass it on at once (a value per window).
        func type(_ value: String) {
            pipeline.input.send(value)
            scheduler.advance()
        }

        /// Waits (real time: the lookup goes to the fake) for the result of `query`.
        func waitForResult(_ query: String) -> Bool {
            waitUntil(timeout: 10) { log.lines.contains { $0.contains(#""type":"result""#) && $0.contains(#""query":"\#(query)""#) } }
        }

        /// The trace events of `stage` as "t event [value]" (a lookup result's value as "query status").
        func lane(_ stage: String) -> [String] {
            traces.filter { $0["stage"] as? String == stage }.map { trace in
                let t = trace["t"] as? Double ?? -1
                var text = "\(Int(t)) \(trace["event"] as? String ?? "?")"
                if let value = trace["value"] as? String { text += " \(value)" }
                if let value = trace["value"] as? [String: Any] { text += " \(value["query"] ?? "") \(value["status"] ?? "")" }
                return text
            }
        }

        var traces: [[String: Any]] {
            log.lines.compactMap { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      object["type"] as? String == "trace" else { return nil }
                return object
            }
        }
    }

    /// Types the book's trace — h, he, hec, heck, heckj, one value per 600 ms (past the 500 ms
    /// throttle window) — waiting for each result.
    private func typeTheSeedsTrace(into session: Session) {
        for value in ["h", "he", "hec", "heck", "heckj"] {
            session.type(value)
            XCTAssertTrue(session.waitForResult(value), "result for \(value)")
            session.scheduler.advance(by: .milliseconds(600))
        }
        // A found user's activity ends just after its result (the seed's order): wait for that
        // last event too, or a session compared at once may not have it yet.
        XCTAssertTrue(waitUntil(timeout: 10) {
            session.log.lines.last { !$0.contains(#""type":"trace""#) } == #"{"active":false,"type":"activity"}"#
        }, "the last lookup's activity ended")
    }

    func testTheSeedsUsernameTraceStageByStage() throws {
        let session = Session(baseURL: baseURL, tracing: true)
        defer { session.pipeline.cancel() }
        typeTheSeedsTrace(into: session)
        let typed = ["0 value h", "600 value he", "1200 value hec", "1800 value heck", "2400 value heckj"]
        XCTAssertEqual(session.lane("input"), ["0 subscription"] + typed)
        XCTAssertEqual(session.lane("throttle"), ["0 subscription"] + typed, "a value per window passes at once")
        XCTAssertEqual(session.lane("removeDuplicates"), ["0 subscription"] + typed)
        XCTAssertEqual(session.lane("lookup"), [
            "0 subscription", "0 value h too_short", "0 completion",
            "600 subscription", "600 value he too_short", "600 completion",
            "1200 subscription", "1200 value hec found", "1200 completion",
            "1800 subscription", "1800 value heck found", "1800 completion",
            "2400 subscription", "2400 value heckj found", "2400 completion",
        ])
        XCTAssertEqual(session.lane("switchToLatest"), ["0 subscription", "0 value h too_short", "600 value he too_short",
                                                        "1200 value hec found", "1800 value heck found", "2400 value heckj found"])
        let times = session.traces.compactMap { $0["t"] as? Double }
        XCTAssertEqual(times, times.sorted(), "t never goes down")
    }

    /// As in the book's own run, "heck" is typed while "hec" is still being fetched: the `lookup`
    /// lane shows the superseded request's subscription and its cancel (no value, no
    /// completion), and the fake sees that request's connection closed long before its answer.
    func testASupersededLookupShowsItsCancel() throws {
        fake.setFault(.delay(.milliseconds(3_000)), for: "hec")
        let session = Session(baseURL: baseURL, tracing: true)
        defer { session.pipeline.cancel() }
        let started = Date()
        session.type("hec")
        XCTAssertTrue(waitUntil { self.fake.requestCount(for: "hec") == 1 }, "the slow request went out")
        let closedBefore = fake.connectionsClosed
        session.scheduler.advance(by: .milliseconds(600))
        session.type("heck")
        XCTAssertTrue(session.waitForResult("heck"))
        XCTAssertTrue(waitUntil(timeout: 2) { self.fake.connectionsClosed > closedBefore }, "the superseded request was not closed")
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "closed before the slow answer was due")

        XCTAssertEqual(session.lane("input"), ["0 subscription", "0 value hec", "600 value heck"])
        XCTAssertEqual(session.lane("lookup"), [
            "0 subscription", "600 cancel",
            "600 subscription", "600 value heck found", "600 completion",
        ])
        XCTAssertEqual(session.lane("switchToLatest"), ["0 subscription", "600 value heck found"])
        let events = session.log.lines.filter { !$0.contains(#""type":"trace""#) }
        XCTAssertFalse(events.contains { $0.contains(#""query":"hec""#) }, "the superseded lookup is never reported")
        XCTAssertEqual(events.filter { $0.contains(#""type":"activity""#) }, [
            #"{"active":true,"type":"activity"}"#, #"{"active":false,"type":"activity"}"#,
            #"{"active":true,"type":"activity"}"#, #"{"active":false,"type":"activity"}"#,
        ])
    }

    func testTracesOffSendExactlyTheSameEvents() throws {
        let traced = Session(baseURL: baseURL, tracing: true)
        defer { traced.pipeline.cancel() }
        typeTheSeedsTrace(into: traced)
        let plain = Session(baseURL: baseURL, tracing: false)
        defer { plain.pipeline.cancel() }
        typeTheSeedsTrace(into: plain)
        XCTAssertFalse(traced.traces.isEmpty)
        XCTAssertFalse(plain.log.lines.contains { $0.contains(#""type":"trace""#) })
        XCTAssertEqual(traced.log.lines.filter { !$0.contains(#""type":"trace""#) }, plain.log.lines)
    }

    /// `send` runs outside the tracer's lock, in stamp order: a send that waits for an event
    /// traced meanwhile on another thread gets it (were `send` under the lock, that thread would
    /// wait for this one), and that event is sent after the first one.
    func testSendRunsOutsideTheLockAndKeepsTheOrder() {
        let scheduler = DispatchQueue.test
        let log = Log()
        let tracerBox = Box<PipelineTracer?>(nil)
        let otherThreadTraced = Box(false)
        let tracer = PipelineTracer(scheduler: scheduler.eraseToAnyScheduler()) { line in
            log.append(line)
            guard line.contains(#""value":"first""#), let tracer = tracerBox.value else { return }
            let finished = finishesOnAnotherThread {
                let trace: (String, TraceEvent<String, Never>, DispatchQueue.SchedulerTimeType) -> Void = tracer.tracer()
                trace("input", .value("second"), scheduler.now)
            }
            otherThreadTraced.mutate { $0 = finished }
        }
        tracerBox.mutate { $0 = tracer }
        let trace: (String, TraceEvent<String, Never>, DispatchQueue.SchedulerTimeType) -> Void = tracer.tracer()
        trace("input", .value("first"), scheduler.now)
        XCTAssertTrue(otherThreadTraced.value, "the other thread's event was traced while the first was being sent")
        XCTAssertEqual(log.lines.count, 2)
        XCTAssertTrue(log.lines.first?.contains(#""value":"first""#) == true)
        XCTAssertTrue(log.lines.last?.contains(#""value":"second""#) == true, "queued while the first was sent, sent after it")
    }
}

import FakeGithub
import Foundation
import HTTPServer
import HTTPTestSupport
import StreamCore
import XCTest

@testable import ServiceApp

/// `cancel` is Combine's cancel: the instance is torn down — a lookup in flight is cancelled
/// upstream (the fake sees its connection close long before its slow answer was due) — nothing
/// more is sent for the id, and the id can be used again. Closing the socket cancels them all.
final class MuxCancelTests: EndToEndTestCase {
    /// Subscribes `id` to github-user and starts a slow lookup of "heck" (virtual throttle).
    private func startSlowLookup(_ mux: MuxClient, _ id: String) throws {
        try mux.subscribe(id, "github-user")
        try mux.send(id, ["type": "input", "value": "heck"])
        try mux.barrier()
        scheduler.advance(by: .milliseconds(600))
        try mux.waitFor { $0.id == id && $0.event == #"{"active":true,"type":"activity"}"# }
        XCTAssertTrue(waitUntil { self.fake.requestCount(for: "heck") >= 1 })
    }

    func testCancelMidLookupCancelsItUpstreamAndSendsNothingMore() throws {
        try startVirtualService()
        fake.setFault(.delay(.milliseconds(3_000)), for: "heck")
        let mux = try MuxClient(port: port)
        let started = Date()
        try startSlowLookup(mux, "u1")
        try mux.subscribe("f", "form")
        let closedBefore = fake.connectionsClosed

        try mux.cancel("u1")
        try mux.barrier()
        XCTAssertTrue(waitUntil(timeout: 2) { self.fake.connectionsClosed > closedBefore }, "the transfer was not removed")
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "closed before the slow answer was due")
        let framesAfterCancel = mux.frames(for: "u1").count
        try mux.drain(for: max(0.3, 3.3 - Date().timeIntervalSince(started)))
        XCTAssertEqual(mux.frames(for: "u1").count, framesAfterCancel, "nothing more for u1: no activity:false, result or completion")
        XCTAssertFalse(mux.frames(for: "u1").contains { $0.type == "completion" })

        try mux.send("f", ["type": "submit"])
        XCTAssertTrue(try mux.waitFor { $0.id == "f" && $0.type == "event" }.event?.contains("not_ready") == true, "others go on")

        fake.setFault(nil, for: "heck")
        try mux.subscribe("u1", "github-user")
        try mux.send("u1", ["type": "input", "value": "heck"])
        try mux.barrier()
        scheduler.advance(by: .milliseconds(600))
        let result = try mux.waitFor { $0.id == "u1" && ($0.event ?? "").contains(#""type":"result""#) }
        XCTAssertEqual(try WireEvent.decode(XCTUnwrap(result.event)).repos, 6, "the id is used again, by a new instance")
        XCTAssertEqual(mux.frames(for: "u1").filter { $0.type == "subscribed" }.count, 2)
    }

    /// The instance /ws/pipelines cancels is the one the endpoints run: its activity stays
    /// balanced — the cancelled lookup still reports `activity:false` to its own output, which
    /// the multiplexer no longer forwards.
    func testACancelledInstanceBalancesItsActivity() throws {
        try startVirtualService()
        fake.setFault(.delay(.milliseconds(3_000)), for: "heck")
        let service = try XCTUnwrap(service)
        let events = Box<[String]>([])
        let context = PipelineDescriptor.Context(client: service.client, config: service.config,
                                                 scheduler: scheduler.eraseToAnyScheduler(), fairUse: service.fairUse)
        let instance = PipelineDescriptor.githubUser.start(
            context, service.fairUse.quota(for: HTTPRequest(method: .get, target: "/ws/pipelines")),
            PipelineInstance.Output(event: { event in events.mutate { $0.append(event) } }, trace: nil)
        )
        instance.receive("heck")
        scheduler.advance(by: .milliseconds(600))
        XCTAssertTrue(waitUntil { events.value.contains(#"{"active":true,"type":"activity"}"#) })
        instance.cancel()
        XCTAssertTrue(waitUntil { events.value.last == #"{"active":false,"type":"activity"}"# }, "\(events.value)")
        XCTAssertFalse(events.value.contains { $0.contains("result") })
    }

    func testClosingTheSocketCancelsEverySubscription() throws {
        try startVirtualService()
        fake.setFault(.delay(.milliseconds(3_000)), for: "heck")
        waitForIdleMultiplexers()
        var mux: MuxClient? = try MuxClient(port: port)
        try startSlowLookup(try XCTUnwrap(mux), "a")
        try mux?.subscribe("b", "form")
        try mux?.subscribe("c", "github-search")
        try mux?.barrier()
        XCTAssertEqual(try metric("mux_subscriptions"), 3)
        let closedBefore = fake.connectionsClosed
        mux?.close()
        mux = nil
        XCTAssertTrue(waitUntil(timeout: 2) { self.fake.connectionsClosed > closedBefore }, "the lookup in flight was not cancelled")
        XCTAssertTrue(waitUntil { (try? self.metric("mux_subscriptions")) == 0 }, "every subscription ended")
    }
}

import Foundation
import HTTPTestSupport
import StreamCore
import XCTest

@testable import ServiceApp

/// Combine's demand on the wire: `event` frames never beyond what was requested; events wait
/// for their own subscription alone; one past `mux.maxPendingEvents` ends it with `overflow`.
final class MuxDemandTests: EndToEndTestCase {
    private static var abc: [String: Any] { ["type": "field", "name": "value1", "value": "abc"] }

    func testEventsWaitForDemandAndForTheirSubscriptionAlone() throws {
        try startService()
        waitForIdleMultiplexers()
        let mux = try MuxClient(port: port)
        try mux.subscribe("slow", "form", demand: .max(1))
        try mux.subscribe("fast", "form")
        try mux.barrier()
        XCTAssertEqual(mux.events["slow"]?.count, 1, "the hello, then no more demand")
        XCTAssertEqual(mux.events["fast"]?.count, 4, "hello, two validations, submit")
        XCTAssertEqual(try metric("mux_events_held"), 3)
        XCTAssertEqual(try metric("mux_subscriptions"), 2)

        try mux.send("slow", Self.abc)
        try mux.send("fast", Self.abc)
        try mux.barrier()
        XCTAssertEqual(mux.events["slow"]?.count, 1)
        XCTAssertEqual(mux.events["fast"]?.count, 5, "a subscription without demand holds no other up")

        try mux.request("slow", .max(2))
        try mux.barrier()
        XCTAssertEqual(mux.events["slow"]?.count, 3, "exactly the demand, in order")
        XCTAssertEqual(mux.events["slow"], Array(mux.events["fast"]?.prefix(3) ?? []))
        try mux.request("slow", .max(1))
        try mux.request("slow", .max(1))
        try mux.barrier()
        XCTAssertEqual(mux.events["slow"]?.count, 5, "requests add up")
        try mux.send("slow", ["type": "field", "name": "value1", "value": "ab"])
        try mux.barrier()
        XCTAssertEqual(mux.events["slow"]?.count, 5)
        try mux.request("slow", .unlimited)
        try mux.send("slow", ["type": "submit"])
        try mux.barrier()
        XCTAssertEqual(mux.events["slow"]?.count, 7)
        XCTAssertEqual(try metric("mux_events_held"), 0, "nothing held any more")
    }

    func testZeroDemandHoldsEvenTheHello() throws {
        try startService()
        let mux = try MuxClient(port: port)
        try mux.subscribe("f", "form", demand: .max(0))
        try mux.barrier()
        XCTAssertEqual(mux.frames(for: "f").map(\.type), ["subscribed"], "subscribed is outside demand")
        try mux.request("f", .max(1))
        let hello = try mux.waitFor { $0.type == "event" }
        XCTAssertEqual(hello.event, #"{"pipeline":"form","type":"hello"}"#)
    }

    func testOnePastMaxPendingEventsEndsTheSubscriptionWithOverflow() throws {
        try startService { $0.mux.maxPendingEvents = 3 }
        let overflowsBefore = try metric("mux_overflows_total")
        let mux = try MuxClient(port: port)
        try mux.subscribe("f", "form", demand: .max(0))
        try mux.subscribe("other", "form")
        // hello, two validations and submit: the fourth is one too many.
        let completion = try mux.waitFor { $0.type == "completion" }
        XCTAssertEqual(completion.id, "f")
        XCTAssertEqual(completion.failure, "overflow")
        XCTAssertEqual(completion.object["finished"] == nil, true)
        XCTAssertEqual(mux.events["f"], [], "what waited is dropped")
        try mux.request("f", .max(5))
        XCTAssertEqual(try mux.error().code, "unknown_id", "the subscription is gone")
        try mux.send("other", Self.abc)
        try mux.barrier()
        XCTAssertEqual(mux.events["other"]?.count, 5, "the other subscription goes on")

        try mux.subscribe("f", "form", demand: .max(10))
        try mux.barrier()
        XCTAssertEqual(mux.frames(for: "f").last?.type, "event", "the id can be used again")
        XCTAssertEqual(mux.events["f"]?.count, 4)
        XCTAssertEqual(try metric("mux_overflows_total") - overflowsBefore, 1)
    }
}

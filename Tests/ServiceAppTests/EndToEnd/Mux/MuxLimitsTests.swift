import Foundation
import HTTPTestSupport
import StreamCore
import XCTest

@testable import ServiceApp

/// Every refused frame gets an `error` frame with its code and the connection goes on;
/// `mux.maxSubscriptions`, `limits.sessionsPerClient` (each subscription counts) and origins.
final class MuxLimitsTests: EndToEndTestCase {
    func testEveryBadFrameGetsItsErrorAndTheConnectionGoesOn() throws {
        try startService { $0.mux.maxSubscriptions = 2 }
        let mux = try MuxClient(port: port)
        try mux.subscribeWithoutDemand("f", "form")
        try mux.barrier()
        XCTAssertEqual(mux.events["f"]?.count, 4, "no demand in the frame: unlimited")
        let cases: [(String, String?, String)] = [
            ("heckj", nil, "bad_message"),
            ("{oops", nil, "bad_message"),
            (#"{"type":"subscribe","pipeline":"form"}"#, nil, "bad_message"),
            (#"{"type":"request","id":"\#(String(repeating: "x", count: 65))","n":1}"#, nil, "bad_message"),
            (#"{"type":"bogus","id":"f"}"#, "f", "bad_message"),
            (#"{"type":"send","id":"f"}"#, "f", "bad_message"),
            (#"{"type":"subscribe","id":"g","pipeline":"nope"}"#, "g", "unknown_pipeline"),
            (#"{"type":"send","id":"g","message":{"type":"submit"}}"#, "g", "unknown_id"),
            (#"{"type":"request","id":"g","n":1}"#, "g", "unknown_id"),
            (#"{"type":"cancel","id":"g"}"#, "g", "unknown_id"),
            (#"{"type":"subscribe","id":"f","pipeline":"form"}"#, "f", "duplicate_id"),
            (#"{"type":"subscribe","id":"g","pipeline":"form","demand":-1}"#, "g", "bad_demand"),
            (#"{"type":"request","id":"f","n":0}"#, "f", "bad_demand"),
            (#"{"type":"request","id":"f","n":"lots"}"#, "f", "bad_demand"),
        ]
        for (text, id, code) in cases {
            try mux.sendText(text)
            let error = try mux.error()
            XCTAssertEqual(error.code, code, text)
            XCTAssertEqual(error.id, id, text)
            XCTAssertEqual(error.object.keys.contains("id"), true, "\(text): id is present, null when the frame had none")
            XCTAssertFalse((error.object["message"] as? String ?? "").isEmpty, text)
        }
        mux.socket.send(.binary([1, 2, 3]))
        XCTAssertEqual(try mux.error().code, "bad_message", "a binary frame")

        try mux.subscribe("g", "form")
        try mux.subscribe("h", "form")
        let refused = try mux.error()
        XCTAssertEqual([refused.code, refused.id], ["too_many_subscriptions", "h"])
        try mux.cancel("g")
        try mux.subscribe("h", "form")
        try mux.barrier()
        XCTAssertEqual(mux.frames(for: "h").map(\.type).prefix(2), ["error", "subscribed"], "room again after a cancel")

        try mux.send("f", ["type": "submit"])
        XCTAssertTrue(try mux.waitFor { $0.id == "f" && $0.type == "event" }.event?.contains("not_ready") == true,
                      "the first subscription went on through all of it")
    }

    /// Each subscription counts as a session: the connection's own session covers the first,
    /// every other one asks for one more, and gives it back when it ends.
    func testSubscriptionsCountAsSessionsPerClient() throws {
        try startService { $0.fairUse.sessionsPerClient = 3 }
        let mux = try MuxClient(port: port, source: "127.0.0.1")
        for id in ["a", "b", "c"] { try mux.subscribe(id, "form") }
        try mux.barrier()
        XCTAssertEqual(mux.frames.filter { $0.type == "subscribed" }.count, 3)
        try mux.subscribe("d", "form")
        let refused = try mux.error()
        XCTAssertEqual([refused.code, refused.id], ["too_many_sessions", "d"])
        XCTAssertEqual(try upgradeStatus("/ws", from: "127.0.0.1"), 429, "three subscriptions are three sessions")
        XCTAssertEqual(try upgradeStatus("/ws", from: "127.0.0.2"), 101, "another client is unaffected")

        try mux.cancel("a")  // the first: b takes the connection's own session over, gives its extra back
        try mux.barrier()
        let other = try EventClient(port: port, path: "/ws/form", source: "127.0.0.1")
        XCTAssertNotNil(other.hello, "room for one session again")
        try mux.subscribe("d", "form")
        XCTAssertEqual(try mux.error().code, "too_many_sessions", "b, c and /ws/form")
        _ = other
    }

    /// The decision of issue #31, with the defaults: subscriptions count as sessions at the same
    /// rate as sockets, so one socket with 16 live subscriptions (`mux.maxSubscriptions`) uses all
    /// of `limits.sessionsPerClient` (16) and a second tab of the same client is refused until
    /// a subscription ends.
    func testWithTheDefaultsSixteenSubscriptionsOnOneSocketLeaveNoRoomForASecondTab() throws {
        try startService()
        let defaults = ServiceConfig()
        XCTAssertEqual([defaults.mux.maxSubscriptions, defaults.fairUse.sessionsPerClient], [16, 16])
        let mux = try MuxClient(port: port, source: "127.0.0.1")
        for index in 0..<16 { try mux.subscribe("s\(index)", "form") }
        try mux.barrier()
        XCTAssertEqual(mux.frames.filter { $0.type == "subscribed" }.count, 16)
        XCTAssertEqual(try upgradeStatus("/ws/pipelines", from: "127.0.0.1"), 429, "a second tab")
        try mux.cancel("s15")
        try mux.barrier()
        XCTAssertTrue(waitUntil(timeout: 5) { (try? self.upgradeStatus("/ws/pipelines", from: "127.0.0.1")) == 101 },
                      "one subscription fewer: room for the tab")
    }

    func testForeignOriginsAreRefusedAsOnTheOtherEndpoints() throws {
        try startService { $0.fairUse.allowedOrigins = ["https://allowed.example"] }
        XCTAssertEqual(try upgradeStatus("/ws/pipelines", headers: "Origin: https://evil.example\r\n"), 403)
        XCTAssertEqual(try upgradeStatus("/ws/pipelines", headers: "Origin: https://allowed.example\r\n"), 101)
        XCTAssertEqual(try upgradeStatus("/ws/pipelines", headers: "Origin: http://localhost\r\n"), 101, "the service's own origin")
        XCTAssertEqual(try upgradeStatus("/ws/pipelines"), 101, "no Origin: websocat, scripts")
    }

    func testTheUpgradeItselfIsASession() throws {
        try startService { $0.fairUse.sessionsPerClient = 1 }
        let mux = try MuxClient(port: port)
        XCTAssertEqual(try upgradeStatus("/ws/pipelines"), 429)
        try mux.subscribe("a", "form")
        try mux.subscribe("b", "form")
        XCTAssertEqual(try mux.error().code, "too_many_sessions")
    }

    /// Frames go out through the connection's bounded outbound queue: a client with unlimited
    /// demand that sends but never reads is cut off once `webSocket.outboundLimitBytes` of
    /// unsent frames pile up, and other connections are served as usual.
    func testAClientThatNeverReadsIsCutOffByTheOutboundLimit() throws {
        try startService { $0.webSocket.outboundLimitBytes = 65_536 }
        let silent = try TestWebSocketClient(port: port, path: "/ws/pipelines", timeout: 10)
        try silent.send(text: #"{"type":"subscribe","id":"f","pipeline":"form","trace":true}"#)
        // Each frame changes value1 by 4 KiB, which comes back in at least two traces and an
        // event: more goes out than comes in.
        let texts = ["x", "y"].map { letter in
            #"{"type":"send","id":"f","message":{"type":"field","name":"value1","value":"\#(String(repeating: letter, count: 4096))"}}"#
        }
        let ceiling = 64 << 20
        XCTAssertLessThan(try sendWithoutReading(silent, texts: texts, ceiling: ceiling), ceiling,
                          "the server kept taking frames from a client that never reads")
        let other = try MuxClient(port: port)
        try other.subscribe("g", "form")
        XCTAssertEqual(try other.waitFor { $0.type == "event" }.event, #"{"pipeline":"form","type":"hello"}"#)
        XCTAssertTrue(silent.waitForTCPClose(timeout: 10), "the silent client was not cut off")
    }

    private func upgradeStatus(_ path: String, from source: String = "127.0.0.1", headers: String = "") throws -> Int {
        let client = try TestHTTPClient(port: port, source: source, timeout: 10)
        return try client.request(TestWebSocketClient.upgradeRequest(path: path, key: TestWebSocketClient.makeKey(), extra: headers)).status
    }
}

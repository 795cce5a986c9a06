import FakeGithub
@testable import ServiceApp
import Foundation
import XCTest

/// Every `result` status over `/ws`, with upstream faults scripted in FakeGithub; retry delays
/// run on the virtual clock.
final class LookupOutcomeTests: EndToEndTestCase {
    func testRetriesThenSucceeds() throws {
        try startVirtualService()
        fake.script("heckj", .status(503), .status(503))
        let client = try connect()
        try type("heckj", on: client)
        let result = try pump(client) { $0.isResult }
        XCTAssertEqual(result.status, "found")
        XCTAssertEqual(result.repos, 69)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 3)
        try client.drain(for: 0.3)
        XCTAssertEqual(client.results.count, 1, "\(client.events)")
        XCTAssertEqual(client.activity, [true, false], "one lookup, one activity, retries included")
    }

    func testUnavailableAfterRetriesAreUsedUp() throws {
        try startVirtualService()
        fake.setFault(.status(503), for: "heckj")
        let client = try connect()
        try type("heckj", on: client)
        let result = try pump(client) { $0.isResult }
        XCTAssertEqual(result.status, "unavailable")
        XCTAssertEqual(result.users, [])
        XCTAssertEqual(fake.requestCount(for: "heckj"), 3, "2 retries, 3 attempts")
        assertActivityBalanced(try drainedActivity(client))
    }

    func testUnavailableOnConnectionResetAndInvalidJSONIsRetried() throws {
        try startVirtualService()
        fake.script("heckj", .resetMidBody, .invalidJSON)
        let client = try connect()
        try type("heckj", on: client)
        let result = try pump(client) { $0.isResult }
        // A reset is transient (retried); whether invalid JSON is retried is the client's policy:
        // either way the lookup ends in one result for "heckj".
        XCTAssertTrue(["found", "unavailable"].contains(result.status), "\(result)")
        XCTAssertGreaterThanOrEqual(fake.requestCount(for: "heckj"), 2)
        try client.drain(for: 0.2)
        XCTAssertEqual(client.results.count, 1)
    }

    func testRateLimitedIsNotRetried() throws {
        try startVirtualService()
        fake.script("heckj", .rateLimitExceeded)
        let client = try connect()
        try type("heckj", on: client)
        let result = try pump(client) { $0.isResult }
        XCTAssertEqual(result.status, "rate_limited")
        XCTAssertEqual(result.users, [])
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1)
    }

    func testStaleCopyWhenGithubFailsSaysStale() throws {
        // ttl 0: every lookup revalidates, so the second lookup of heckj meets the failure.
        try startVirtualService { $0.cache.ttl = .zero }
        let client = try connect()
        try type("heckj", on: client)
        let fresh = try pump(client) { $0.isResult }
        XCTAssertEqual(fresh.status, "found")
        XCTAssertNil(fresh.stale, "fresh answers carry no stale field: \(fresh.raw)")
        fake.setFault(.status(503), for: "heckj")
        try type("heck", on: client)
        try pump(client) { $0.isResult && $0.query == "heck" }
        try type("heckj", on: client)
        let stale = try pump(client) { $0.isResult && $0.query == "heckj" }
        XCTAssertEqual(stale.status, "found")
        XCTAssertEqual(stale.stale, true, stale.raw)
        XCTAssertEqual(stale.users?.first?.login, "heckj")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 4, "one fetch, then three attempts")
    }

    func testNotFound() throws {
        try startVirtualService()
        let client = try connect()
        try type("nobody", on: client)
        let result = try pump(client) { $0.isResult }
        XCTAssertEqual(result.raw, #"{"query":"nobody","status":"not_found","type":"result","users":[]}"#)
        XCTAssertEqual(fake.requestCount(for: "nobody"), 1, "404 is not retried")
    }

    func testInvalidLoginsNeverGoUpstream() throws {
        try startVirtualService()
        let client = try connect()
        let logins = ["-bad", "a--b", "x/../y", String(repeating: "a", count: 40), "bad-", "he llo", "héck"]
        for login in logins {
            try type(login, on: client)
            XCTAssertEqual(try client.result(for: login).status, "invalid", login)
        }
        XCTAssertEqual(fake.requestCount, 0, "\(fake.requests.map(\.path))")
        XCTAssertEqual(client.activity, [], "no lookup, no activity")
        // 39 characters is still a login.
        try type(String(repeating: "a", count: 39), on: client)
        XCTAssertEqual(try client.result(for: String(repeating: "a", count: 39)).status, "not_found")
    }

    func testMalformedFrameGetsAnErrorAndTheSessionGoesOn() throws {
        try startVirtualService()
        let client = try connect()
        try client.sendText("{oops")
        let error = try client.next()
        XCTAssertEqual(error.type, "error")
        XCTAssertEqual(error.code, "bad_message")
        XCTAssertFalse((error.message ?? "").isEmpty)
        try client.sendText(#"{"type":"subscribe","value":"heckj"}"#)
        XCTAssertEqual(try client.next().code, "bad_message", "unknown type")

        try type("heckj", on: client)
        XCTAssertEqual(try client.result(for: "heckj").repos, 69)
    }

    func testPlainTextFramesAreValues() throws {
        try startVirtualService()
        let client = try connect()
        try client.sendText("heck\r\n")
        try client.barrier()
        scheduler.advance(by: .milliseconds(600))
        XCTAssertEqual(try client.result(for: "heck").repos, 6)
    }

    func testBinaryFrameClosesWith1003() throws {
        try startVirtualService()
        let client = try connect()
        try client.socket.send(.binary, Array("heckj".utf8))
        XCTAssertEqual(try client.socket.readClose(), 1003)
        try client.socket.sendClose(code: .unsupportedData)  // the closing handshake's reply
        XCTAssertTrue(client.socket.waitForTCPClose())
        XCTAssertEqual(fake.requestCount, 0)
    }

    private func drainedActivity(_ client: EventClient) throws -> [Bool] {
        try client.drain(for: 0.2)
        return client.activity
    }
}

/// Refused WebSocket handshakes answer JSON errors like every other refusal of the service.
final class HandshakeRefusalTests: EndToEndTestCase {
    func testPlainGetOnWebSocketPathsIs426JSON() throws {
        try startService()
        for path in ["/ws", "/ws/echo"] {
            let response = try get(path)
            XCTAssertEqual(response.status, 426, path)
            XCTAssertEqual(response.header("Content-Type"), "application/json", path)
            XCTAssertEqual(response.header("Sec-WebSocket-Version"), "13", path)
            XCTAssertEqual(response.header("Upgrade"), "websocket", path)
            XCTAssertTrue(response.text.contains(#""error":"upgrade_required""#), response.text)
        }
    }

    func testBadKeyIs400JSON() throws {
        try startService()
        let response = try get(
            "/ws", headers: "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: short\r\n"
        )
        XCTAssertEqual(response.status, 400)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertTrue(response.text.contains(#""error":"bad_request""#), response.text)
    }
}

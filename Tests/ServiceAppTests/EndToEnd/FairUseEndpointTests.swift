import FakeGithub
import Foundation
import HTTPTestSupport
import XCTest

@testable import ServiceApp

/// Fair use over real sockets: two clients on two loopback addresses (127.0.0.1 and 127.0.0.2),
/// forwarded addresses from untrusted and trusted peers, origins, and an IPv6 peer.
final class FairUseEndpointTests: EndToEndTestCase {
    private func get(_ path: String, from source: String, headers: String = "", host: String = "127.0.0.1") throws -> TestResponse {
        let client = try TestHTTPClient(host: host, port: port, source: source, timeout: 15)
        return try client.request("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\(headers)Connection: close\r\n\r\n")
    }

    private func upgrade(from source: String = "127.0.0.1", headers: String = "") throws -> TestResponse {
        let client = try TestHTTPClient(port: port, source: source, timeout: 10)
        return try client.request(TestWebSocketClient.upgradeRequest(path: "/ws", key: TestWebSocketClient.makeKey(), extra: headers))
    }

    func testSessionsPerClientRefusedWith429AndCountedDownOnClose() throws {
        try startService { $0.fairUse.sessionsPerClient = 2 }
        var first: EventClient? = try EventClient(port: port, source: "127.0.0.1")
        let second = try EventClient(port: port, source: "127.0.0.1")
        let refused = try upgrade(from: "127.0.0.1")
        XCTAssertEqual(refused.status, 429, refused.text)
        XCTAssertTrue(refused.text.contains(#""error":"too_many_sessions""#), refused.text)
        XCTAssertNotNil(refused.header("Retry-After").flatMap(Int.init))
        XCTAssertNotNil(try EventClient(port: port, source: "127.0.0.2").hello, "another client is unaffected")

        first?.socket.http.resetOnClose()
        first = nil  // the connection drops without a close handshake
        XCTAssertTrue(waitUntil(timeout: 5) { (try? self.upgrade(from: "127.0.0.1").status) == 101 }, "counted down when a session closes, however it closes")
        _ = second
    }

    func testLookupsPerClientAreChargedOnlyForUpstreamRequests() throws {
        try startService { $0.fairUse.lookupsPerClientPerMinute = 2 }
        XCTAssertEqual(try get("/api/users/heckj", from: "127.0.0.1").status, 200)
        XCTAssertEqual(try get("/api/users/heck", from: "127.0.0.1").status, 200)
        let refused = try get("/api/users/hec", from: "127.0.0.1")
        XCTAssertEqual(refused.status, 429, refused.text)
        XCTAssertTrue(refused.text.contains(#""error":"client_rate_limited""#), refused.text)
        XCTAssertEqual(refused.header("Retry-After").flatMap(Int.init), 30)
        XCTAssertEqual(fake.requestCount(for: "hec"), 0, "refused before any request")
        XCTAssertEqual(try get("/api/users/heckj", from: "127.0.0.1").status, 200, "cached answers are never refused")
        XCTAssertEqual(try get("/api/users/hec", from: "127.0.0.2").status, 200, "another client is unaffected")
    }

    func testWebSocketResultSaysTheClientScope() throws {
        try startVirtualService { $0.fairUse.lookupsPerClientPerMinute = 1 }
        let client = try connect()
        try type("heckj", on: client)
        XCTAssertEqual(try pump(client) { $0.isResult }.status, "found")
        try type("heck", on: client)
        let limited = try pump(client) { $0.isResult && $0.query == "heck" }
        XCTAssertEqual(limited.status, "rate_limited")
        XCTAssertTrue(limited.raw.contains(#""scope":"client""#), limited.raw)
        XCTAssertEqual(fake.requestCount(for: "heck"), 0)
        // Refused at once, nothing went out: no activity for it (issue #31), only heckj's pair.
        try client.drain(for: 0.2)
        XCTAssertEqual(client.activity, [true, false])
    }

    /// GitHub's limit spent (the demo's `limited`): later lookups that need GitHub are answered
    /// `rate_limited` at once, without activity, until the reset; REST says 429 with Retry-After.
    func testWhileGithubsLimitIsPausedLookupsAreRefusedAtOnceWithoutActivity() throws {
        try startVirtualService()
        fake.script("heckj", .rateLimitExceeded)
        let client = try connect()
        try type("heckj", on: client)
        XCTAssertEqual(try pump(client) { $0.isResult }.status, "rate_limited")
        try type("heck", on: client)
        let refused = try pump(client) { $0.isResult && $0.query == "heck" }
        XCTAssertEqual(refused.status, "rate_limited")
        XCTAssertFalse(refused.raw.contains("scope"), refused.raw)
        try client.drain(for: 0.2)
        XCTAssertEqual(client.activity, [true, false], "only the lookup that went out")
        XCTAssertEqual(fake.requestCount(for: "heck"), 0)
        let rest = try get("/api/users/hec")
        XCTAssertEqual(rest.status, 429, rest.text)
        XCTAssertNotNil(rest.header("Retry-After").flatMap(Int.init))
    }

    func testForwardedAddressesOnlyFromTrustedProxies() throws {
        try startService { $0.fairUse.lookupsPerClientPerMinute = 1 }
        XCTAssertEqual(try get("/api/users/heckj", from: "127.0.0.1", headers: "X-Forwarded-For: 203.0.113.1\r\n").status, 200)
        let forged = try get("/api/users/heck", from: "127.0.0.1", headers: "X-Forwarded-For: 203.0.113.2\r\n")
        XCTAssertEqual(forged.status, 429, "an untrusted peer cannot pose as other clients")
    }

    func testATrustedProxyPassesRealClientAddresses() throws {
        try startService { config in
            config.fairUse.lookupsPerClientPerMinute = 1
            config.fairUse.trustedProxies = [IPAddressRange("127.0.0.1")].compactMap { $0 }
        }
        XCTAssertEqual(try get("/api/users/heckj", from: "127.0.0.1", headers: "X-Forwarded-For: 203.0.113.1\r\n").status, 200)
        XCTAssertEqual(try get("/api/users/heck", from: "127.0.0.1", headers: "X-Forwarded-For: 203.0.113.2\r\n").status, 200)
        XCTAssertEqual(try get("/api/users/hec", from: "127.0.0.1", headers: "X-Forwarded-For: 203.0.113.1\r\n").status, 429)
        // 127.0.0.2 is not a trusted proxy: its header is ignored, it is a client of its own.
        XCTAssertEqual(try get("/api/users/hec", from: "127.0.0.2", headers: "X-Forwarded-For: 203.0.113.2\r\n").status, 200)
    }

    func testForeignOriginsAreRefusedAndSameOriginAllowed() throws {
        try startService()
        let evil = try upgrade(headers: "Origin: https://evil.example\r\n")
        XCTAssertEqual(evil.status, 403, evil.text)
        XCTAssertTrue(evil.text.contains(#""error":"origin_not_allowed""#), evil.text)
        // upgradeRequest sends Host: localhost.
        XCTAssertEqual(try upgrade(headers: "Origin: http://localhost\r\n").status, 101)
        XCTAssertEqual(try upgrade().status, 101, "no Origin: not a browser")
    }

    func testListedOriginsAreAllowed() throws {
        try startService { $0.fairUse.allowedOrigins = ["https://app.example.com"] }
        XCTAssertEqual(try upgrade(headers: "Origin: https://app.example.com\r\n").status, 101)
        XCTAssertEqual(try upgrade(headers: "Origin: https://evil.example\r\n").status, 403)
    }

    func testIPv6PeersAreClientsOfTheirOwn() throws {
        try startService { config in
            config.host = "::1"
            config.fairUse.lookupsPerClientPerMinute = 1
        }
        XCTAssertEqual(try get("/api/users/heckj", from: "::1", host: "::1").status, 200)
        let refused = try get("/api/users/heck", from: "::1", host: "::1")
        XCTAssertEqual(refused.status, 429, refused.text)
    }
}

import HTTPServer
import XCTest

@testable import ServiceApp

final class ClientAddressResolverTests: XCTestCase {
    private func request(peer: String, _ headers: [(String, String)] = []) throws -> HTTPRequest {
        var request = HTTPRequest(method: .get, target: "/ws")
        for (name, value) in headers { request.headers.add(name, value) }
        request.peer = try SocketAddress(host: peer, port: 40_000)
        return request
    }

    private func resolver(_ trusted: [String]) -> ClientAddressResolver {
        ClientAddressResolver(trustedProxies: trusted.compactMap(IPAddressRange.init))
    }

    func testRangesMatchIPv4IPv6AndMappedAddresses() throws {
        let v4 = try XCTUnwrap(IPAddressRange("10.0.0.0/8"))
        XCTAssertTrue(v4.contains("10.200.3.4"))
        XCTAssertTrue(v4.contains("::ffff:10.1.2.3"))
        XCTAssertFalse(v4.contains("11.0.0.1"))
        let v6 = try XCTUnwrap(IPAddressRange("fd00::/8"))
        XCTAssertTrue(v6.contains("fd12:3456::1"))
        XCTAssertFalse(v6.contains("fe80::1"))
        XCTAssertTrue(try XCTUnwrap(IPAddressRange("::1")).contains("0:0:0:0:0:0:0:1"))
        XCTAssertTrue(try XCTUnwrap(IPAddressRange("192.168.1.7")).contains("192.168.1.7"))
        XCTAssertFalse(try XCTUnwrap(IPAddressRange("192.168.1.7")).contains("192.168.1.8"))
        for bad in ["", "10.0.0.0/33", "fd00::/129", "example.com", "10.0.0/8", "1.2.3.4/-1"] {
            XCTAssertNil(IPAddressRange(bad), bad)
        }
    }

    func testAnUntrustedPeerIsTheClientWhateverItForwards() throws {
        let resolver = resolver([])
        let forged = try request(peer: "127.0.0.1", [("X-Forwarded-For", "203.0.113.9"), ("Forwarded", "for=198.51.100.1")])
        XCTAssertEqual(resolver.client(of: forged), "127.0.0.1")
    }

    func testATrustedProxyNamesTheRightMostUntrustedHop() throws {
        let resolver = resolver(["127.0.0.1", "10.0.0.0/8"])
        // The client forged the first entry; nginx (10.1.1.1) appended the real one; the peer is the balancer.
        let chain = try request(peer: "127.0.0.1", [("X-Forwarded-For", "6.6.6.6, 203.0.113.9, 10.1.1.1")])
        XCTAssertEqual(resolver.client(of: chain), "203.0.113.9")
        XCTAssertEqual(resolver.client(of: try request(peer: "127.0.0.1")), "127.0.0.1", "no header: the proxy itself")
        let allTrusted = try request(peer: "127.0.0.1", [("X-Forwarded-For", "10.9.9.9")])
        XCTAssertEqual(resolver.client(of: allTrusted), "10.9.9.9", "only proxies: the left-most one")
    }

    func testForwardedHeaderWithIPv6AndPorts() throws {
        let resolver = resolver(["::1"])
        let forwarded = try request(peer: "::1", [("Forwarded", #"for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711""#)])
        XCTAssertEqual(resolver.client(of: forwarded), "2001:db8:cafe::17")
        let xff = try request(peer: "::1", [("X-Forwarded-For", "192.0.2.60:5555")])
        XCTAssertEqual(resolver.client(of: xff), "192.0.2.60")
    }

    func testAddressesAreCanonical() throws {
        let resolver = resolver(["127.0.0.1"])
        XCTAssertEqual(resolver.client(of: try request(peer: "127.0.0.1", [("X-Forwarded-For", "::FFFF:203.0.113.9")])), "203.0.113.9")
        XCTAssertEqual(resolver.client(of: try request(peer: "127.0.0.1", [("X-Forwarded-For", "2001:DB8:0:0::1")])), "2001:db8::1")
        XCTAssertEqual(resolver.client(of: try request(peer: "127.0.0.1", [("X-Forwarded-For", "unknown")])), "unknown")
    }
}

final class OriginPolicyTests: XCTestCase {
    func testSameOriginNoOriginAndListedOriginsOnly() {
        let policy = OriginPolicy(allowedOrigins: ["https://app.example.com"])
        XCTAssertTrue(policy.allows(origin: nil, host: "localhost:8080"), "websocat and scripts send no Origin")
        XCTAssertTrue(policy.allows(origin: "http://localhost:8080", host: "localhost:8080"))
        XCTAssertTrue(policy.allows(origin: "https://service.example", host: "service.example"), "default ports")
        XCTAssertTrue(policy.allows(origin: "http://[::1]:8080", host: "[::1]:8080"))
        XCTAssertTrue(policy.allows(origin: "https://APP.example.com:443", host: "localhost:8080"), "listed")
        XCTAssertFalse(policy.allows(origin: "https://evil.example", host: "localhost:8080"))
        XCTAssertFalse(policy.allows(origin: "http://localhost:8081", host: "localhost:8080"), "another port is another origin")
        XCTAssertFalse(policy.allows(origin: "null", host: "localhost:8080"))
        XCTAssertFalse(policy.allows(origin: "http://localhost:8080", host: nil))
        XCTAssertTrue(OriginPolicy(allowedOrigins: ["*"]).allows(origin: "https://evil.example", host: "x"))
    }
}

import FakeGithub
import Foundation
import HTTPTestSupport
import XCTest

@testable import ServiceApp

/// The service behind the real nginx with `deploy/nginx/nginx.conf` (`NginxProcess`: its `server`
/// and `listen` lines pointed at loopback): pages, REST and WebSocket upgrades pass through, and the service —
/// trusting nginx's address — counts the real clients, whatever they forward themselves.
final class NginxProxyTests: EndToEndTestCase {
    private var nginx: NginxProcess?
    private var nginxPort: UInt16 { nginx?.port ?? 0 }

    override func tearDown() {
        nginx = nil
        super.tearDown()
    }

    private func startNginx(configure: (inout ServiceConfig) -> Void) throws {
        _ = try NginxProcess.requireNginx()
        try startService { config in
            config.fairUse.trustedProxies = [IPAddressRange("127.0.0.1")].compactMap { $0 }
            configure(&config)
        }
        nginx = try NginxProcess(replicaPorts: [port])
    }

    private func through(_ path: String, from source: String = "127.0.0.1", headers: String = "") throws -> TestResponse {
        let client = try TestHTTPClient(port: nginxPort, source: source, timeout: 15)
        return try client.request("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(nginxPort)\r\n\(headers)Connection: close\r\n\r\n")
    }

    func testPagesRESTAndWebSocketsPassThrough() throws {
        try startNginx { _ in }
        XCTAssertEqual(try through("/healthz").status, 200)
        XCTAssertTrue(try through("/").text.contains("<title>GitHub user lookup</title>"))
        let user = try through("/api/users/heckj")
        XCTAssertEqual(user.status, 200, user.text)
        XCTAssertTrue(user.text.contains(#""login":"heckj""#))
        // A browser's upgrade through nginx: its Origin names the Host it used, port included.
        let origin = "Origin: http://127.0.0.1:\(nginxPort)\r\n"
        let session = try EventClient(port: nginxPort, extra: origin, hostHeader: "127.0.0.1:\(nginxPort)")
        XCTAssertEqual(session.hello?.type, "hello")
        try session.input("heckj")
        let result = try session.result(for: "heckj")
        XCTAssertEqual(result.status, "found")
        let foreign = try TestHTTPClient(port: nginxPort).request(TestWebSocketClient.upgradeRequest(
            path: "/ws", key: TestWebSocketClient.makeKey(), extra: "Origin: https://evil.example\r\n", hostHeader: "127.0.0.1:\(nginxPort)"))
        XCTAssertEqual(foreign.status, 403, "a foreign origin is refused through nginx too")
    }

    func testTheServiceCountsRealClientsBehindNginx() throws {
        // nginx reaches the service from 127.0.0.1 (trusted); the clients come from .2 and .3.
        try startNginx { $0.fairUse.lookupsPerClientPerMinute = 1 }
        XCTAssertEqual(try through("/api/users/heckj", from: "127.0.0.2").status, 200)
        // A forged X-Forwarded-For: nginx appends the real address, and the service takes the
        // right-most address that is not a trusted proxy — the real one.
        let forged = try through("/api/users/heck", from: "127.0.0.2", headers: "X-Forwarded-For: 203.0.113.77\r\n")
        XCTAssertEqual(forged.status, 429, forged.text)
        XCTAssertEqual(try through("/api/users/heck", from: "127.0.0.3").status, 200, "another client behind the same nginx")
    }
}

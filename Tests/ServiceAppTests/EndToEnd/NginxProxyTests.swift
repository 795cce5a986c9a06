import FakeGithub
import Foundation
import HTTPTestSupport
import XCTest

@testable import ServiceApp

/// The service behind the real nginx with `deploy/nginx/nginx.conf` (its `server` and `listen`
/// lines pointed at loopback): pages, REST and WebSocket upgrades pass through, and the service —
/// trusting nginx's address — counts the real clients, whatever they forward themselves.
final class NginxProxyTests: EndToEndTestCase {
    private var nginx: ChildProcess?
    private var nginxPort: UInt16 = 0
    private var directory: URL!

    override func tearDown() {
        nginx?.send(SIGQUIT)
        _ = nginx?.waitForExit(timeout: 5)
        nginx = nil
        if let directory { try? FileManager.default.removeItem(at: directory) }
        super.tearDown()
    }

    /// `nginx`, or a skip (a failure under CI) naming the install.
    private static func requireNginx() throws -> URL {
        for path in ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"] where FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        let message = "nginx is not installed; install it with: apt-get install nginx"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            throw ToolMissing(message: "CI is set, so this fails instead of skipping: \(message)")
        }
        throw XCTSkip(message)
    }

    /// The deploy configuration for this test: both upstream servers → the service on loopback,
    /// `listen` → a free loopback port, and pid, logs and temp files in a temp directory.
    private func configuration(servicePort: UInt16) throws -> String {
        let deploy = ChildProcess.packageRoot.appendingPathComponent("deploy/nginx/nginx.conf")
        var text = try String(contentsOf: deploy, encoding: .utf8)
        let servers = text.components(separatedBy: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("server replica") }
        XCTAssertEqual(servers.count, 2, "the deploy config balances two replicas")
        for line in servers {
            text = text.replacingOccurrences(of: line, with: "        server 127.0.0.1:\(servicePort) max_fails=3 fail_timeout=5s;")
        }
        XCTAssertTrue(text.contains("listen 80;"))
        text = text.replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(nginxPort);")
        let temp = directory.path
        text = text.replacingOccurrences(of: "http {", with: """
            http {
                access_log \(temp)/access.log;
                client_body_temp_path \(temp)/body; proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi; uwsgi_temp_path \(temp)/uwsgi; scgi_temp_path \(temp)/scgi;
            """)
        return "pid \(temp)/nginx.pid;\nerror_log \(temp)/error.log;\n" + text
    }

    private func startNginx(configure: (inout ServiceConfig) -> Void) throws {
        let binary = try Self.requireNginx()
        try startService { config in
            config.fairUse.trustedProxies = [IPAddressRange("127.0.0.1")].compactMap { $0 }
            configure(&config)
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        nginxPort = try unusedLoopbackPort()
        let file = directory.appendingPathComponent("nginx.conf")
        try configuration(servicePort: port).write(to: file, atomically: true, encoding: .utf8)
        let check = try ChildProcess(binary, ["-t", "-q", "-c", file.path])
        XCTAssertEqual(check.waitForExit(timeout: 10), 0, "nginx -t: \(check.output)")
        nginx = try ChildProcess(binary, ["-c", file.path, "-g", "daemon off;"])
        XCTAssertTrue(waitUntil(timeout: 10) { (try? TestHTTPClient(port: self.nginxPort)) != nil }, "nginx did not start")
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

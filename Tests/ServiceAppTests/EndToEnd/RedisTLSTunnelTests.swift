import FakeGithub
import Foundation
import HTTPTestSupport
import SharedState
import XCTest

@testable import ServiceApp

/// TLS to Redis the way `deploy/` does it (issue #33): Debian's hiredis 0.14.1 has no TLS, so a
/// `stunnel4` beside each replica carries the plain connection over TLS. Here, on loopback: a
/// CA made for the test (openssl), a `redis-server` with only a TLS port for clients besides its
/// check port, and stunnel run with `deploy/stunnel/redis-tls.conf` (endpoint, CA and ports
/// substituted). Two replicas share state through it; a tunnel given another CA refuses the
/// server, and stunnel's log says why.
final class RedisTLSTunnelTests: TwoReplicaTestCase {
    private var directory: URL!
    private var tunnels: [ChildProcess] = []
    private var tlsRedis: RedisServerProcess?

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("redis-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        super.tearDown()
        for tunnel in tunnels where tunnel.process.isRunning { tunnel.send(SIGTERM); _ = tunnel.waitForExit(timeout: 5) }
        tunnels = []
        tlsRedis = nil
        try? FileManager.default.removeItem(at: directory)
    }

    func testReplicasShareStateThroughTheTunnelAndAWrongCAIsRefused() throws {
        let tlsPort = try startTLSRedis()
        let (tunnelPort, _) = try startTunnel(to: tlsPort, caFile: "ca.crt")
        let redis = RedisClient.Configuration(port: Int(tunnelPort), password: "tls-pw", timeout: .milliseconds(500))
        XCTAssertEqual(try RedisClient(configuration: redis).runAndWait(["PING"]).get(), .status("PONG"), "AUTH and PING over TLS")

        let portB = try startTwoReplicas(sharing: redis)
        XCTAssertTrue(waitUntil(timeout: 10) { (try? self.get("/readyz").text.contains(#""redis":"available""#)) == true })
        let first = try TestHTTPClient(port: port).request("GET /api/users/heckj HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(first.status, 200, first.text)
        let shared = RedisClient(configuration: redis)
        XCTAssertTrue(waitUntil { (try? shared.runAndWait(["EXISTS", "serviceapp:cache:heckj"]).get()) == .integer(1) }, "A shared it")
        let second = try TestHTTPClient(port: portB).request("GET /api/users/heckj HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(second.header("Cache-Status")?.contains("hit") == true, "\(second.headers)")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1, "B answered from A's copy, through TLS")

        // A tunnel that trusts another CA: the server's certificate is refused, no command passes,
        // and stunnel's log names the reason.
        let (wrongPort, wrongTunnel) = try startTunnel(to: tlsPort, caFile: "wrong-ca.crt")
        let refused = RedisClient(configuration: .init(port: Int(wrongPort), password: "tls-pw", poolSize: 1, timeout: .milliseconds(500)))
        guard case .failure(.connection) = refused.runAndWait(["PING"]) else { return XCTFail("the wrong CA must refuse the server") }
        XCTAssertTrue(waitUntil { wrongTunnel.output.contains("certificate verify failed") }, wrongTunnel.output)
        XCTAssertTrue(wrongTunnel.output.contains("CERT: Pre-verification error: self-signed certificate in certificate chain"), wrongTunnel.output)
    }

    // MARK: Setup

    /// A CA, a server certificate it signed for 127.0.0.1 and localhost, and another CA; then a
    /// `redis-server` with a TLS port (no client certificates) and a password. Returns the TLS port.
    private func startTLSRedis() throws -> UInt16 {
        let openssl = try ToolMissing.executable(["openssl"], name: "openssl", install: "apt-get install -y openssl")
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key",
             "-out", "ca.crt", "-days", "1", "-subj", "/CN=ServiceApp test CA"],
            ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "redis.key",
             "-out", "redis.csr", "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", "redis.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "redis.crt",
             "-days", "1", "-extfile", "san.cnf"],
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "wrong-ca.key",
             "-out", "wrong-ca.crt", "-days", "1", "-subj", "/CN=Another CA"],
        ]
        try Data("subjectAltName=DNS:localhost,IP:127.0.0.1\n".utf8).write(to: directory.appendingPathComponent("san.cnf"))
        for step in steps {
            let run = try ChildProcess(URL(fileURLWithPath: openssl), step, directory: directory)
            XCTAssertEqual(run.waitForExit(timeout: 30), 0, "openssl \(step.joined(separator: " ")): \(run.output)")
        }
        let tlsPort = try unusedLoopbackPort()
        let file = { (name: String) in self.directory.appendingPathComponent(name).path }
        tlsRedis = try RedisServerProcess(arguments: [
            "--tls-port", String(tlsPort), "--tls-cert-file", file("redis.crt"), "--tls-key-file", file("redis.key"),
            "--tls-ca-cert-file", file("ca.crt"), "--tls-auth-clients", "no", "--requirepass", "tls-pw",
        ])
        return tlsPort
    }

    /// stunnel with `deploy/stunnel/redis-tls.conf`, its endpoint `127.0.0.1:tlsPort` checked as
    /// `localhost` against `caFile`, accepting on a free loopback port (returned once it listens).
    private func startTunnel(to tlsPort: UInt16, caFile: String) throws -> (UInt16, ChildProcess) {
        let stunnel = try ToolMissing.executable(["stunnel4", "stunnel"], name: "stunnel", install: "apt-get install -y stunnel4")
        let template = try String(
            contentsOf: ChildProcess.packageRoot.appendingPathComponent("deploy/stunnel/redis-tls.conf"), encoding: .utf8)
        let acceptPort = try unusedLoopbackPort()
        let configuration = template.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            switch line.split(separator: "=").first?.trimmingCharacters(in: .whitespaces) {
            case "accept": "accept = 127.0.0.1:\(acceptPort)"
            case "connect": "connect = 127.0.0.1:\(tlsPort)"
            case "CAfile": "CAfile = \(directory.appendingPathComponent(caFile).path)"
            case "checkHost", "sni": "\(line.split(separator: "=")[0])= localhost"
            default: String(line)
            }
        }.joined(separator: "\n")
        XCTAssertTrue(template.contains("verifyChain = yes") && template.contains("checkHost ="), "the deployed tunnel verifies")
        let path = directory.appendingPathComponent("stunnel-\(acceptPort).conf")
        try Data(configuration.utf8).write(to: path)
        let tunnel = try ChildProcess(URL(fileURLWithPath: stunnel), [path.path], directory: directory)
        tunnels.append(tunnel)
        XCTAssertTrue(waitUntil(timeout: 10) { (try? TestHTTPClient(port: acceptPort, timeout: 1)) != nil }, tunnel.output)
        return (acceptPort, tunnel)
    }
}

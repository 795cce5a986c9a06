import HTTPTestSupport
import FakeGithub
import Foundation
import XCTest

/// The built `ServiceApp` binary as a container platform runs it: `--port 0`, the
/// `listening on` line, traffic, SIGTERM, exit 0 within the drain time.
final class ServiceProcessTests: XCTestCase {
    func testBinaryServesAndDrainsOnSIGTERM() throws {
        let binary = try ChildProcess.requiredProduct("ServiceApp")
        let fake = FakeGithub()
        let fakeURL = try fake.start()
        defer { fake.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serviceapp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let configFile = directory.appendingPathComponent("service.json")
        try Data(#"{"drainTimeoutSeconds": 3}"#.utf8).write(to: configFile)
        var environment = ProcessInfo.processInfo.environment
        environment["GITHUB_TOKEN"] = "ghp_processTestToken42"
        for name in ["HOST", "PORT", "GITHUB_API_URL", "THROTTLE_MS", "CONFIG_FILE"] { environment[name] = nil }

        let child = try ChildProcess(
            binary,
            ["--port", "0", "--host", "127.0.0.1", "--github-api-url", fakeURL.absoluteString, "--throttle-ms", "20",
             "--config", configFile.path],
            environment: environment, directory: directory
        )
        let portText = child.waitForMatch(#"listening on http://127\.0\.0\.1:(\d+)"#, timeout: 20)
        let port = try XCTUnwrap(portText.flatMap(UInt16.init), "no listening line: \(child.output)")
        XCTAssertNotEqual(port, 0)

        let response = try TestHTTPClient(port: port).request("GET /api/users/heckj HTTP/1.1\r\nHost: localhost\r\n\r\n")
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertTrue(response.text.contains(#""public_repos":69"#), response.text)
        XCTAssertEqual(fake.requests.last?.header("Authorization"), "Bearer ghp_processTestToken42")

        let session = try EventClient(port: port)
        try session.input("heck")
        XCTAssertEqual(try session.result(for: "heck").repos, 6)

        let signalled = Date()
        child.send(SIGTERM)
        XCTAssertEqual(try session.socket.readClose(), 1001, "WebSockets close with going away")
        try session.socket.sendClose(code: .goingAway)
        let status = child.waitForExit(timeout: 3 + 5)
        XCTAssertEqual(status, 0, "exit status; output:\n\(child.output)")
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 3 + 2, "exit within the drain time")
        XCTAssertFalse(child.output.contains("ghp_processTestToken42"), "the token was logged")
    }

    /// `DRAIN_GRACE_PERIOD_SECONDS` (issue #31): after SIGTERM the process answers `/readyz`
    /// with 503 and goes on accepting and serving for the grace period, then drains and exits 0.
    func testAfterSIGTERMItServesOnForTheGracePeriodWhileNotReady() throws {
        let binary = try ChildProcess.requiredProduct("ServiceApp")
        let fake = FakeGithub()
        let fakeURL = try fake.start()
        defer { fake.stop() }
        var environment = ProcessInfo.processInfo.environment
        for name in ["HOST", "PORT", "GITHUB_API_URL", "THROTTLE_MS", "CONFIG_FILE", "GITHUB_TOKEN"] { environment[name] = nil }
        environment["DRAIN_GRACE_PERIOD_SECONDS"] = "3"
        let child = try ChildProcess(
            binary, ["--port", "0", "--host", "127.0.0.1", "--github-api-url", fakeURL.absoluteString],
            environment: environment, directory: FileManager.default.temporaryDirectory)
        let portText = child.waitForMatch(#"listening on http://127\.0\.0\.1:(\d+)"#, timeout: 20)
        let port = try XCTUnwrap(portText.flatMap(UInt16.init), "no listening line: \(child.output)")
        XCTAssertEqual(child.waitForMatch(#"drainGracePeriodSeconds=(\S+)"#, timeout: 1), "3")
        let get = { (path: String) throws -> TestResponse in
            try TestHTTPClient(port: port).request("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        }
        XCTAssertEqual(try get("/readyz").status, 200)

        child.send(SIGTERM)
        XCTAssertTrue(waitUntil(timeout: 2) { (try? get("/readyz").status) == 503 }, "not ready: \(child.output)")
        XCTAssertEqual(try get("/api/users/heckj").status, 200, "a new connection is still served")
        XCTAssertEqual(child.waitForExit(timeout: 3 + 10 + 5), 0, "exit status; output:\n\(child.output)")
        XCTAssertTrue(child.output.contains("still serving for the drain grace period"), child.output)
    }
}

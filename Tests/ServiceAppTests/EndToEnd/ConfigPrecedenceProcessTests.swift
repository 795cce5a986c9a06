import FakeGithub
import Foundation
import HTTPTestSupport
import XCTest

/// The built `ServiceApp` binary with flags, environment variables and a config file at once:
/// each setting comes from the layer that wins (flag > environment variable > file > default),
/// as swift-configuration's providers read them, and a bad value in a layer that another
/// overrides still stops the service with status 2.
final class ConfigPrecedenceProcessTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func binary() throws -> URL { try ChildProcess.requiredProduct("ServiceApp") }

    /// The process environment without any of the service's variables, plus `variables`.
    private func environment(_ variables: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["HOST", "PORT", "GITHUB_API_URL", "THROTTLE_MS", "TRUSTED_PROXIES", "ALLOWED_ORIGINS", "REDIS_URL",
                     "CONFIG_FILE", "GITHUB_TOKEN"] {
            environment[name] = nil
        }
        return environment.merging(variables) { $1 }
    }

    private func write(_ json: String, to name: String) throws -> URL {
        let file = directory.appendingPathComponent(name)
        try Data(json.utf8).write(to: file)
        return file
    }

    func testFlagsBeatEnvironmentBeatsFileBeatsDefaults() throws {
        let fake = FakeGithub()
        let fakeURL = try fake.start()
        defer { fake.stop() }
        // Every layer sets the port; the file and the environment also name an upstream, a host
        // and a throttle window; only the file sets minLength and the drain time.
        let file = try write(
            #"{"port": 1, "host": "0.0.0.0", "githubApiUrl": "http://127.0.0.1:9", "throttleMs": 100, "minLength": 4, "drainTimeoutSeconds": 3}"#,
            to: "flag.json")
        // CONFIG_FILE names a file that --config overrides; were it read, its port would fail.
        let unused = try write(#"{"port": "not a port"}"#, to: "env.json")
        let child = try ChildProcess(
            try binary(), ["--port", "0", "--throttle-ms", "20", "--config", file.path],
            environment: environment([
                "PORT": "2", "HOST": "127.0.0.1", "GITHUB_API_URL": fakeURL.absoluteString, "THROTTLE_MS": "30",
                "CONFIG_FILE": unused.path,
                // Not one of the service's variables: the provider would map it to minLength.
                "MIN_LENGTH": "9",
            ]),
            directory: directory)

        // --port 0 beats PORT=2 and the file's 1; HOST beats the file's 0.0.0.0.
        let portText = child.waitForMatch(#"listening on http://127\.0\.0\.1:(\d+)"#, timeout: 20)
        let port = try XCTUnwrap(portText.flatMap(UInt16.init), "no listening line: \(child.output)")
        XCTAssertFalse([0, 1, 2].contains(port))
        // The settings the service resolved, from its start-up line.
        XCTAssertEqual(child.waitForMatch(#"throttleMs=(\d+)"#, timeout: 1), "20", "--throttle-ms beats THROTTLE_MS and the file")
        XCTAssertEqual(child.waitForMatch(#"minLength=(\d+)"#, timeout: 1), "4", "the file beats the default; MIN_LENGTH is no setting")
        XCTAssertEqual(child.waitForMatch(#"configFile=(\S+)"#, timeout: 1), file.path, "--config beats CONFIG_FILE")
        XCTAssertEqual(child.waitForMatch(#"githubApiUrl=(\S+)"#, timeout: 1), fakeURL.absoluteString)

        // GITHUB_API_URL beats the file's upstream: the lookup reaches the fake GitHub.
        let response = try TestHTTPClient(port: port).request("GET /api/users/heckj HTTP/1.1\r\nHost: localhost\r\n\r\n")
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(fake.requests.last?.path, "/users/heckj")

        child.send(SIGTERM)
        XCTAssertEqual(child.waitForExit(timeout: 3 + 5), 0, "exit status; output:\n\(child.output)")
    }

    func testABadFileValueThatAFlagOverridesStopsTheProcessWithStatus2() throws {
        let file = try write(#"{"port": "8080", "throttleMs": 100}"#, to: "service.json")
        let child = try ChildProcess(
            try binary(), ["--port", "0", "--config", file.path],
            environment: environment(["PORT": "9000"]), directory: directory)
        XCTAssertEqual(child.waitForExit(timeout: 20), 2, child.output)
        XCTAssertTrue(
            child.output.contains(#"Error: invalid value "8080" for key "port" in config file \#(file.path): must be an integer in 0...65535"#),
            child.output)
        XCTAssertFalse(child.output.contains("listening on"), child.output)
    }
}

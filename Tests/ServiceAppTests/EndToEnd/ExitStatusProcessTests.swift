import FakeGithub
import Foundation
import XCTest

/// The `ServiceApp` binary's exit statuses as docs/protocol.md lists them (issue #31): 2 for
/// every configuration or usage error, before anything is logged as resolved; 1 when the
/// service fails after its configuration was accepted; 0 for `--help`. `--help` names every
/// environment variable the service reads.
final class ExitStatusProcessTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("exit-status-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs the binary with `arguments` in an environment without the service's variables and
    /// returns its exit status and output.
    private func run(_ arguments: [String]) throws -> (status: Int32?, output: String) {
        var environment = ProcessInfo.processInfo.environment
        for name in ["HOST", "PORT", "GITHUB_API_URL", "THROTTLE_MS", "TRUSTED_PROXIES", "ALLOWED_ORIGINS", "REDIS_URL",
                     "REDIS_PASSWORD", "REDIS_SENTINEL_PASSWORD", "CONFIG_FILE", "GITHUB_TOKEN"] {
            environment[name] = nil
        }
        let child = try ChildProcess(
            try ChildProcess.requiredProduct("ServiceApp"), arguments, environment: environment, directory: directory)
        let status = child.waitForExit(timeout: 20)
        return (status, child.output)
    }

    func testAnUnknownFlagExitsWith2LikeBadConfiguration() throws {
        let (status, output) = try run(["--no-such-flag"])
        XCTAssertEqual(status, 2, output)
        XCTAssertTrue(output.contains("Unknown option '--no-such-flag'"), output)
        let missing = try run(["--port"])
        XCTAssertEqual(missing.status, 2, missing.output)
    }

    func testAHostTheServerCannotBindExitsWith2BeforeTheConfigurationIsResolved() throws {
        let flag = try run(["--port", "0", "--host", "no-such-host.invalid"])
        XCTAssertEqual(flag.status, 2, flag.output)
        XCTAssertTrue(flag.output.contains(#"invalid value "no-such-host.invalid" for --host"#), flag.output)
        XCTAssertFalse(flag.output.contains("configuration resolved"), flag.output)

        let file = directory.appendingPathComponent("service.json")
        try Data(#"{"host": "256.1.1.1"}"#.utf8).write(to: file)
        let fromFile = try run(["--port", "0", "--config", file.path])
        XCTAssertEqual(fromFile.status, 2, fromFile.output)
        XCTAssertTrue(
            fromFile.output.contains(#"invalid value "256.1.1.1" for key "host" in config file \#(file.path)"#), fromFile.output)
        XCTAssertFalse(fromFile.output.contains("configuration resolved"), fromFile.output)
    }

    func testAServiceThatCannotListenExitsWith1() throws {
        // A port some listener holds already: the configuration is fine, binding fails.
        let holder = FakeGithub()
        let taken = try holder.start()
        defer { holder.stop() }
        let (status, output) = try run(["--host", "127.0.0.1", "--port", String(try XCTUnwrap(taken.port))])
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("configuration resolved"), output)
    }

    func testHelpExitsWith0AndNamesEveryVariableAndTheExitStatuses() throws {
        let (status, output) = try run(["--help"])
        XCTAssertEqual(status, 0, output)
        for text in ["HOST", "PORT", "GITHUB_API_URL", "GITHUB_TOKEN", "THROTTLE_MS", "REDIS_URL", "CONFIG_FILE",
                     "TRUSTED_PROXIES", "ALLOWED_ORIGINS", "DRAIN_GRACE_PERIOD_SECONDS", "REDIS_PASSWORD",
                     "REDIS_SENTINEL_PASSWORD", "Exit status: 0", "1 when", "2 for"] {
            XCTAssertTrue(output.contains(text), "\(text) missing from --help:\n\(output)")
        }
    }
}

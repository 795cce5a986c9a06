import ArgumentParser
import Foundation
import XCTest

@testable import ServiceApp

/// Every configuration error names what is at fault, and the command exits with status 2.
final class ConfigErrorTests: XCTestCase {
    private let path = ConfigResolver.defaultConfigPath

    private func fileError(_ json: String) -> ConfigError? { FakeFiles.error(file: json) }

    func testMissingFileNamedByFlagIsAnError() {
        XCTAssertThrowsError(try FakeFiles().resolver(configFlag: "missing.json").resolve()) {
            XCTAssertEqual($0 as? ConfigError, .fileNotFound(path: "missing.json", namedBy: .flag("--config")))
            XCTAssertTrue("\($0)".contains("missing.json"))
        }
    }

    func testMissingFileNamedByVariableIsAnError() {
        let resolver = FakeFiles().resolver(environment: ["CONFIG_FILE": "/etc/nope.json"])
        XCTAssertThrowsError(try resolver.resolve()) {
            XCTAssertEqual(
                $0 as? ConfigError, .fileNotFound(path: "/etc/nope.json", namedBy: .environment("CONFIG_FILE")))
        }
    }

    func testEmptyConfigFlagIsAnError() {
        XCTAssertThrowsError(try FakeFiles().resolver(configFlag: "").resolve()) {
            guard case .invalidValue(_, .flag("--config"), _) = $0 as? ConfigError else {
                return XCTFail("\($0)")
            }
        }
    }

    func testDirectoryIsUnreadable() {
        let resolver = ConfigResolver(configFlag: NSTemporaryDirectory(), environment: [:])
        XCTAssertThrowsError(try resolver.resolve()) {
            guard case .unreadableFile(let path, _) = $0 as? ConfigError else { return XCTFail("\($0)") }
            XCTAssertEqual(path, NSTemporaryDirectory())
        }
    }

    func testInvalidJSONNamesFileAndPosition() throws {
        let error = try XCTUnwrap(fileError("{\n  \"port\": 80,\n  \"host\": nope\n}"))
        guard case .invalidJSON(let file, let reason) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(file, path)
        XCTAssertTrue(reason.contains("line 3"), reason)
        XCTAssertTrue(error.description.contains(path))
    }

    func testTruncatedJSONIsInvalid() {
        guard case .invalidJSON = fileError(#"{"port": 8080,"#) else { return XCTFail() }
    }

    func testTopLevelMustBeAnObject() {
        guard case .invalidJSON(_, let reason) = fileError("[1, 2]") else { return XCTFail() }
        XCTAssertTrue(reason.contains("object"), reason)
    }

    func testUnknownKeysAreListedDottedAndSorted() {
        let error = fileError(#"{"portt": 1, "http": {"maxHeaderByte": 1, "maxBodyBytes": 1}, "extra": {}}"#)
        XCTAssertEqual(error, .unknownKeys(["extra", "http.maxHeaderByte", "portt"], path: path))
        XCTAssertEqual(
            error?.description,
            #"config file config/service.json has unknown keys "extra", "http.maxHeaderByte", "portt""#)
    }

    /// Regression (fuzzing): a group's setting could also be written at the top level under its
    /// dotted name, so a file could give it twice — and which one won changed from parse to parse.
    func testAGroupSettingAtTheTopLevelIsUnknownAndSaysWhereItGoes() {
        let error = fileError(#"{"http.maxHeaderBytes": 10, "http": {"maxHeaderBytes": 16384}}"#)
        XCTAssertEqual(error, .unknownKeys(["http.maxHeaderBytes"], path: path))
        XCTAssertEqual(
            error?.description,
            #"config file config/service.json has unknown key "http.maxHeaderBytes" (a group's setting goes inside its object: "http": {"maxHeaderBytes": …})"#)
    }

    func testGroupMustBeAnObject() {
        XCTAssertEqual(
            fileError(#"{"cache": 5}"#),
            .invalidValue(value: "5", source: .file(path: path, key: "cache"), reason: "must be an object"))
    }

    func testOutOfRangeValueInFileNamesKeyAndFile() throws {
        let error = try XCTUnwrap(fileError(#"{"port": 70000}"#))
        XCTAssertEqual(
            error,
            .invalidValue(
                value: "70000", source: .file(path: path, key: "port"), reason: "must be an integer in 0...65535"))
        XCTAssertEqual(
            error.description,
            #"invalid value 70000 for key "port" in config file config/service.json: must be an integer in 0...65535"#)
    }

    func testNestedOutOfRangeValueNamesDottedKey() {
        let error = fileError(#"{"webSocket": {"maxMessageBytes": 1}}"#)
        guard case .invalidValue("1", .file(path, "webSocket.maxMessageBytes"), _) = error else {
            return XCTFail("\(String(describing: error))")
        }
    }

    func testWrongTypesInFile() {
        let cases: [(json: String, key: String)] = [
            (#"{"port": "8080"}"#, "port"),
            (#"{"port": 8080.5}"#, "port"),
            (#"{"port": null}"#, "port"),
            (#"{"host": 1}"#, "host"),
            (#"{"webSocket": {"compression": "yes"}}"#, "webSocket.compression"),
            (#"{"http": {"headerReadTimeoutSeconds": "10"}}"#, "http.headerReadTimeoutSeconds"),
            (#"{"cache": {"ttlSeconds": [60]}}"#, "cache.ttlSeconds"),
            (#"{"mux": {"maxPendingEvents": "256"}}"#, "mux.maxPendingEvents"),
            (#"{"mux": {"maxSubscriptions": 2.5}}"#, "mux.maxSubscriptions"),
        ]
        for (json, key) in cases {
            guard case .invalidValue(_, .file(_, let named), _) = fileError(json) else {
                XCTFail(json)
                continue
            }
            XCTAssertEqual(named, key, json)
        }
    }

    func testOutOfRangeValuesInFile() {
        let cases: [(json: String, key: String)] = [
            (#"{"minLength": 0}"#, "minLength"),
            (#"{"minLength": 40}"#, "minLength"),
            (#"{"throttleMs": -1}"#, "throttleMs"),
            (#"{"maxConnections": 0}"#, "maxConnections"),
            (#"{"timerSlackMicroseconds": -1}"#, "timerSlackMicroseconds"),
            (#"{"timerSlackMicroseconds": 100001}"#, "timerSlackMicroseconds"),
            (#"{"drainTimeoutSeconds": -0.5}"#, "drainTimeoutSeconds"),
            (#"{"http": {"maxHeaderBytes": 100}}"#, "http.maxHeaderBytes"),
            (#"{"http": {"keepAliveIdleTimeoutSeconds": 0}}"#, "http.keepAliveIdleTimeoutSeconds"),
            (#"{"webSocket": {"outboundLimitBytes": 0}}"#, "webSocket.outboundLimitBytes"),
            (#"{"upstream": {"connectTimeoutSeconds": 0}}"#, "upstream.connectTimeoutSeconds"),
            (#"{"upstream": {"maxConnections": 0}}"#, "upstream.maxConnections"),
            (#"{"retry": {"maxRetries": 1}}"#, "retry.maxRetries"),
            (#"{"retry": {"baseDelayMs": 60001}}"#, "retry.baseDelayMs"),
            (#"{"cache": {"capacity": -1}}"#, "cache.capacity"),
            (#"{"mux": {"maxSubscriptions": 0}}"#, "mux.maxSubscriptions"),
            (#"{"mux": {"maxSubscriptions": 10001}}"#, "mux.maxSubscriptions"),
            (#"{"mux": {"maxPendingEvents": 0}}"#, "mux.maxPendingEvents"),
            (#"{"mux": {"maxPendingEvents": 1000001}}"#, "mux.maxPendingEvents"),
            (#"{"logLevel": "verbose"}"#, "logLevel"),
            (#"{"githubApiUrl": "ftp://example.com"}"#, "githubApiUrl"),
            (#"{"githubApiUrl": "api.github.com"}"#, "githubApiUrl"),
            (#"{"githubApiUrl": "https://example.com/?q=1"}"#, "githubApiUrl"),
            (#"{"host": ""}"#, "host"),
            (#"{"host": "local host"}"#, "host"),
            // The server binds numeric addresses only: refused here, with the others (#31).
            (#"{"host": "256.1.1.1"}"#, "host"),
            (#"{"host": "no-such-host.invalid"}"#, "host"),
        ]
        for (json, key) in cases {
            guard case .invalidValue(_, .file(_, let named), _) = fileError(json) else {
                XCTFail(json)
                continue
            }
            XCTAssertEqual(named, key, json)
        }
    }

    func testInvalidFlagAndVariableValuesNameTheirSource() {
        XCTAssertEqual(
            FakeFiles.error(flags: [.throttleMs: "60001"]),
            .invalidValue(value: "\"60001\"", source: .flag("--throttle-ms"), reason: "must be an integer in 0...60000"))
        XCTAssertEqual(
            FakeFiles.error(environment: ["PORT": "http"]),
            .invalidValue(value: "\"http\"", source: .environment("PORT"), reason: "must be an integer in 0...65535"))
        XCTAssertEqual(
            FakeFiles.error(environment: ["PORT": "http"])?.description,
            #"invalid value "http" for environment variable PORT: must be an integer in 0...65535"#)
        guard case .invalidValue(_, .environment("GITHUB_API_URL"), _) = FakeFiles.error(
            environment: ["GITHUB_API_URL": "not a url"])
        else { return XCTFail() }
    }

    func testAHostTheServerCannotBindIsRefusedWithTheOtherSettings() throws {
        // Issue #31: `--host no-such-host.invalid` used to pass, log "configuration resolved",
        // then fail to bind with exit 1.
        XCTAssertEqual(
            FakeFiles.error(flags: [.host: "no-such-host.invalid"])?.description,
            #"invalid value "no-such-host.invalid" for --host: \#(ConfigResolver.hostReason)"#)
        XCTAssertEqual(
            FakeFiles.error(file: #"{"host": "256.1.1.1"}"#),
            .invalidValue(value: "\"256.1.1.1\"", source: .file(path: path, key: "host"), reason: ConfigResolver.hostReason))
        for host in ["0.0.0.0", "127.0.0.1", "::", "::1", "[::1]", "localhost"] {
            XCTAssertEqual(try FakeFiles.resolve(flags: [.host: host]).host, host)
        }
    }

    func testInvalidFlagBeatsAValidFile() {
        // The flag wins, so its invalid value is reported even though the file's is fine.
        guard case .invalidValue(_, .flag("--port"), _) = FakeFiles.error(file: #"{"port": 1}"#, flags: [.port: "-1"])
        else { return XCTFail() }
    }

    func testBadFileValueIsAnErrorEvenWhenAFlagOrVariableOverridesIt() {
        // The README walk-through: `{"port": "8080"}` with `--port 9000` used to start on 9000.
        XCTAssertEqual(
            FakeFiles.error(file: #"{"port": "8080"}"#, flags: [.port: "9000"]),
            .invalidValue(value: "\"8080\"", source: .file(path: path, key: "port"), reason: "must be an integer in 0...65535"))
        XCTAssertEqual(
            FakeFiles.error(file: #"{"throttleMs": 99999}"#, flags: [.throttleMs: "100"], environment: ["THROTTLE_MS": "200"]),
            .invalidValue(value: "99999", source: .file(path: path, key: "throttleMs"), reason: "must be an integer in 0...60000"))
        XCTAssertEqual(
            FakeFiles.error(file: #"{"host": 7}"#, environment: ["HOST": "127.0.0.1"]),
            .invalidValue(value: "7", source: .file(path: path, key: "host"), reason: ConfigResolver.hostReason))
        // An overridden environment variable is checked too.
        XCTAssertEqual(
            FakeFiles.error(flags: [.port: "9000"], environment: ["PORT": "http"]),
            .invalidValue(value: "\"http\"", source: .environment("PORT"), reason: "must be an integer in 0...65535"))
        // Valid everywhere: the flag still wins.
        XCTAssertEqual(try FakeFiles.resolve(file: #"{"port": 1111}"#, flags: [.port: "3333"], environment: ["PORT": "2222"]).port, 3333)
    }

    func testCommandRejectsAnOverriddenBadFileValueWithExitStatus2() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("service.json")
        try Data(#"{"port": "8080"}"#.utf8).write(to: file)
        let command = try ServiceCommand.parse(["--config", file.path, "--port", "9000"])
        XCTAssertThrowsError(try command.resolvedConfig(resolver: command.resolver(environment: [:]))) {
            XCTAssertEqual(($0 as? ExitCode)?.rawValue, 2)
        }
    }

    func testCommandTurnsConfigErrorsIntoExitStatus2() throws {
        let command = try ServiceCommand.parse(["--port", "99999"])
        XCTAssertThrowsError(try command.resolvedConfig(resolver: command.resolver(environment: [:]))) {
            XCTAssertEqual(($0 as? ExitCode)?.rawValue, 2)
        }
        XCTAssertEqual(ServiceCommand.exitCode(for: ServiceCommand.configErrorExitCode).rawValue, 2)
    }
}

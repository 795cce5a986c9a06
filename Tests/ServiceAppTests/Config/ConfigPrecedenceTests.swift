import Foundation
import XCTest

@testable import ServiceApp

/// Flag > environment variable > config file > built-in default.
final class ConfigPrecedenceTests: XCTestCase {
    private let path = ConfigResolver.defaultConfigPath

    func testNothingSetGivesTheBuiltInDefaults() throws {
        let config = try FakeFiles.resolve()
        XCTAssertEqual(config, ServiceConfig())
        XCTAssertEqual(config.host, "0.0.0.0")
        XCTAssertEqual(config.port, 8080)
        XCTAssertEqual(config.githubAPIURL.absoluteString, "https://api.github.com")
        XCTAssertEqual(config.throttle, .milliseconds(500))
        XCTAssertEqual(config.minLength, 3)
        XCTAssertNil(config.githubToken)
        XCTAssertNil(config.configFile, "the default file is absent, so none was read")
    }

    /// One row per overridable key: the four layers with distinct values.
    private struct Row {
        let key: ConfigKey
        let fileValue: String  // JSON
        let envValue: String
        let flagValue: String
        let read: (ServiceConfig) -> String
        let expected: (default: String, file: String, env: String, flag: String)
    }

    private let rows: [Row] = [
        Row(
            key: .port, fileValue: "1111", envValue: "2222", flagValue: "3333", read: { "\($0.port)" },
            expected: ("8080", "1111", "2222", "3333")),
        Row(
            key: .host, fileValue: "\"10.0.0.1\"", envValue: "10.0.0.2", flagValue: "10.0.0.3", read: { $0.host },
            expected: ("0.0.0.0", "10.0.0.1", "10.0.0.2", "10.0.0.3")),
        Row(
            key: .githubApiUrl, fileValue: "\"http://file.test\"", envValue: "http://env.test/",
            flagValue: "http://127.0.0.1:9999/api/v3", read: { $0.githubAPIURL.absoluteString },
            expected: ("https://api.github.com", "http://file.test", "http://env.test", "http://127.0.0.1:9999/api/v3")),
        Row(
            key: .throttleMs, fileValue: "100", envValue: "200", flagValue: "0",
            read: { "\($0.throttle.wholeMilliseconds)" }, expected: ("500", "100", "200", "0")),
    ]

    func testFlagBeatsEnvironmentBeatsFileBeatsDefault() throws {
        for row in rows {
            let name = try XCTUnwrap(row.key.environmentVariable)
            let file = "{\"\(row.key.rawValue)\": \(row.fileValue)}"
            let env = [name: row.envValue]
            let flags = [row.key: row.flagValue]
            let key = row.key.rawValue
            XCTAssertEqual(row.read(try FakeFiles.resolve()), row.expected.default, key)
            XCTAssertEqual(row.read(try FakeFiles.resolve(file: file)), row.expected.file, key)
            XCTAssertEqual(row.read(try FakeFiles.resolve(environment: env)), row.expected.env, key)
            XCTAssertEqual(row.read(try FakeFiles.resolve(file: file, environment: env)), row.expected.env, key)
            XCTAssertEqual(row.read(try FakeFiles.resolve(flags: flags)), row.expected.flag, key)
            XCTAssertEqual(row.read(try FakeFiles.resolve(file: file, flags: flags)), row.expected.flag, key)
            XCTAssertEqual(row.read(try FakeFiles.resolve(flags: flags, environment: env)), row.expected.flag, key)
            XCTAssertEqual(
                row.read(try FakeFiles.resolve(file: file, flags: flags, environment: env)), row.expected.flag, key)
        }
    }

    func testEmptyEnvironmentVariableCountsAsUnset() throws {
        let config = try FakeFiles.resolve(file: #"{"port": 1111}"#, environment: ["PORT": "", "HOST": ""])
        XCTAssertEqual(config.port, 1111)
        XCTAssertEqual(config.host, "0.0.0.0")
    }

    func testFileOnlySettingsBeatDefaults() throws {
        let json = """
            {"minLength": 4, "logLevel": "DEBUG", "drainTimeoutSeconds": 2.5, "maxConnections": 7,
             "timerSlackMicroseconds": 0,
             "http": {"maxHeaderBytes": 2048, "maxBodyBytes": 0, "headerReadTimeoutSeconds": 0.25,
                      "keepAliveIdleTimeoutSeconds": 3},
             "webSocket": {"maxMessageBytes": 125, "pingIntervalSeconds": 0, "idleTimeoutSeconds": 9,
                           "outboundLimitBytes": 70000, "compression": false},
             "upstream": {"connectTimeoutSeconds": 1, "requestTimeoutSeconds": 2, "maxConnections": 8},
             "retry": {"maxRetries": 3, "baseDelayMs": 10},
             "cache": {"capacity": 0, "ttlSeconds": 1},
             "mux": {"maxSubscriptions": 3, "maxPendingEvents": 1}}
            """
        let config = try FakeFiles.resolve(file: json)
        var expected = ServiceConfig()
        expected.configFile = path
        expected.minLength = 4
        expected.logLevel = .debug
        expected.drainTimeout = .milliseconds(2500)
        expected.maxConnections = 7
        expected.timerSlack = .zero
        expected.http = .init(
            maxHeaderBytes: 2048, maxBodyBytes: 0, headerReadTimeout: .milliseconds(250),
            keepAliveIdleTimeout: .seconds(3))
        expected.webSocket = .init(
            maxMessageBytes: 125, pingInterval: .zero, idleTimeout: .seconds(9), outboundLimitBytes: 70_000,
            compression: false)
        expected.upstream = .init(connect: .seconds(1), request: .seconds(2), maxConnections: 8)
        expected.retry = .init(maxRetries: 3, baseDelay: .milliseconds(10))
        expected.cache = .init(capacity: 0, ttl: .seconds(1))
        expected.mux.maxSubscriptions = 3
        expected.mux.maxPendingEvents = 1
        XCTAssertEqual(config, expected)
    }

    func testPartialGroupKeepsTheOtherDefaults() throws {
        let config = try FakeFiles.resolve(file: #"{"http": {"maxBodyBytes": 10}}"#)
        XCTAssertEqual(config.http.maxBodyBytes, 10)
        XCTAssertEqual(config.http.maxHeaderBytes, ServiceConfig().http.maxHeaderBytes)
    }

    func testConfigFlagBeatsConfigFileVariableBeatsDefaultPath() throws {
        let fake = FakeFiles(files: [
            path: #"{"port": 1}"#, "env.json": #"{"port": 2}"#, "flag.json": #"{"port": 3}"#,
        ])
        XCTAssertEqual(try fake.resolver().resolve().port, 1)
        XCTAssertEqual(try fake.resolver(environment: ["CONFIG_FILE": "env.json"]).resolve().port, 2)
        let both = fake.resolver(configFlag: "flag.json", environment: ["CONFIG_FILE": "env.json"])
        XCTAssertEqual(try both.resolve().port, 3)
        XCTAssertEqual(try both.resolve().configFile, "flag.json")
    }

    func testCommandLineFlagsReachTheResolver() throws {
        let command = try ServiceCommand.parse([
            "--host", "127.0.0.1", "--port", "0", "--github-api-url", "http://localhost:1234/",
            "--throttle-ms", "50", "--config", "custom.json",
        ])
        var resolver = command.resolver(environment: ["PORT": "9", "HOST": "::1"])
        XCTAssertEqual(resolver.configFlag, "custom.json")
        resolver.readFile = { path throws(ConfigError) in path == "custom.json" ? Data(#"{"minLength": 5}"#.utf8) : nil }
        let config = try resolver.resolve()
        XCTAssertEqual(config.host, "127.0.0.1")
        XCTAssertEqual(config.port, 0)
        XCTAssertEqual(config.githubAPIURL.absoluteString, "http://localhost:1234")
        XCTAssertEqual(config.throttle, .milliseconds(50))
        XCTAssertEqual(config.minLength, 5)
    }

    func testRepositoryConfigFileSpellsOutEveryDefault() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Config
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent(ConfigResolver.defaultConfigPath)
        let file = try ConfigFile.parse(Data(contentsOf: url), path: url.path)
        XCTAssertEqual(Set(file.values.keys), Set(ConfigKey.allCases), "every key, no more")
        let config = try ConfigResolver(environment: [:], readFile: { _ throws(ConfigError) in
            try? Data(contentsOf: url)
        }).resolve()
        var expected = ServiceConfig()
        expected.configFile = ConfigResolver.defaultConfigPath
        XCTAssertEqual(config, expected)
    }
}

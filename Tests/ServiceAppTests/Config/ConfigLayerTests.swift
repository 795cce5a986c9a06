import struct Configuration.AbsoluteConfigKey
import XCTest

@testable import ServiceApp

/// The layers as swift-configuration's providers read them: the documented flag and variable
/// names, only the service's variables, strict types in the file.
final class ConfigLayerTests: XCTestCase {
    private let path = ConfigResolver.defaultConfigPath

    private func text(_ layer: ConfigLayer, _ key: ConfigKey) throws -> String? {
        guard case .string(let text)? = try layer.snapshot.value(forKey: key.absoluteKey, type: .string).value?.content
        else { return nil }
        return text
    }

    func testProvidersDeriveTheDocumentedFlagsAndVariables() throws {
        // The providers encode a key's name themselves (`githubApiUrl`: `--github-api-url`,
        // `GITHUB_API_URL`); the names the docs and error messages give must be theirs.
        var flagged = 0
        var variables = 0
        for key in ConfigKey.allCases {
            if let flag = key.flag {
                XCTAssertEqual(try text(.commandLine([key: "v"]), key), "v", flag)
                let result = try ConfigLayer.commandLine([key: "v"]).snapshot.value(forKey: key.absoluteKey, type: .string)
                XCTAssertEqual(result.encodedKey, flag)
                flagged += 1
            }
            if let name = key.environmentVariable {
                XCTAssertEqual(try text(.environment([name: "v"]), key), "v", name)
                variables += 1
            }
        }
        XCTAssertEqual(flagged, 5)
        XCTAssertEqual(variables, 12)
        XCTAssertEqual(ConfigLayer.environment(["CONFIG_FILE": "a.json"]).text("configFile"), "a.json")
        XCTAssertEqual(ConfigLayer.environment(["GITHUB_TOKEN": "t"]).text("githubToken"), "t")
    }

    func testOnlyTheServiceVariablesBecomeSettings() throws {
        // EnvironmentVariablesProvider would read `minLength` from MIN_LENGTH and
        // `http.maxBodyBytes` from HTTP_MAX_BODY_BYTES; the service's variables are the documented seven.
        let environment = ["MIN_LENGTH": "9", "HTTP_MAX_BODY_BYTES": "1", "LOG_LEVEL": "trace", "CACHE_CAPACITY": "x"]
        XCTAssertEqual(try FakeFiles.resolve(environment: environment), ServiceConfig())
        XCTAssertNil(try text(.environment(environment), .minLength))
    }

    func testSecretsAreMarkedSecret() throws {
        let environment = ConfigLayer.environment(["REDIS_URL": "redis://:pw@h", "GITHUB_TOKEN": "t", "PORT": "1"])
        let redis = try environment.snapshot.value(forKey: ConfigKey.redisUrl.absoluteKey, type: .string).value
        XCTAssertEqual(redis?.isSecret, true)
        let token = try environment.snapshot.value(forKey: AbsoluteConfigKey(["githubToken"]), type: .string).value
        XCTAssertEqual(token?.isSecret, true)
        XCTAssertEqual(try environment.snapshot.value(forKey: ConfigKey.port.absoluteKey, type: .int).value?.isSecret, false)
        let flag = try ConfigLayer.commandLine([.redisUrl: "redis://:pw@h"]).snapshot
            .value(forKey: ConfigKey.redisUrl.absoluteKey, type: .string).value
        XCTAssertEqual(flag?.isSecret, true)
    }

    func testFileValuesAreNotCoercedAsTheLibrarysJSONSnapshotWould() {
        // JSONSnapshot reads `true` as 1, `1` as true and `null` as absent; the file layer rejects them.
        let cases: [(json: String, key: String, shown: String)] = [
            (#"{"port": true}"#, "port", "true"),
            (#"{"webSocket": {"compression": 1}}"#, "webSocket.compression", "1"),
            (#"{"cache": {"ttlSeconds": false}}"#, "cache.ttlSeconds", "false"),
            (#"{"minLength": null}"#, "minLength", "null"),
            (#"{"trustedProxies": ["10.0.0.0/8", 7]}"#, "trustedProxies", "[…]"),
        ]
        for (json, key, shown) in cases {
            guard case .invalidValue(let value, .file(path, key), _)? = FakeFiles.error(file: json) else {
                XCTFail(json)
                continue
            }
            XCTAssertEqual(value, shown, json)
        }
    }

    func testAFlagValueStartingWithADashStaysAValue() {
        XCTAssertEqual(
            FakeFiles.error(flags: [.throttleMs: "-5"]),
            .invalidValue(value: "\"-5\"", source: .flag("--throttle-ms"), reason: "must be an integer in 0...60000"))
        XCTAssertEqual(
            FakeFiles.error(flags: [.port: "--1"]),
            .invalidValue(value: "\"--1\"", source: .flag("--port"), reason: "must be an integer in 0...65535"))
    }

    func testListsFromTheEnvironmentDropEmptyItems() throws {
        let config = try FakeFiles.resolve(environment: ["ALLOWED_ORIGINS": "https://a.example, ,https://b.example,"])
        XCTAssertEqual(config.fairUse.allowedOrigins, ["https://a.example", "https://b.example"])
    }
}

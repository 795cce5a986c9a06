import Foundation
import Logging
import XCTest

@testable import ServiceApp

/// `GITHUB_TOKEN` comes from the environment only and never shows up in descriptions or logs.
final class GitHubTokenTests: XCTestCase {
    private let secret = "ghp_S3cr3tT0k3nValue"

    func testTokenComesFromTheEnvironment() throws {
        let config = try FakeFiles.resolve(environment: ["GITHUB_TOKEN": " \(secret)\n"])
        XCTAssertEqual(config.githubToken?.authorizationHeaderValue, "Bearer \(secret)")
    }

    func testEmptyTokenIsUnset() throws {
        XCTAssertNil(try FakeFiles.resolve(environment: ["GITHUB_TOKEN": ""]).githubToken)
        XCTAssertNil(try FakeFiles.resolve(environment: ["GITHUB_TOKEN": " \n"]).githubToken)
    }

    func testThereIsNoTokenFlag() {
        XCTAssertThrowsError(try ServiceCommand.parse(["--github-token", secret]))
        XCTAssertThrowsError(try ServiceCommand.parse(["--token", secret]))
    }

    func testTokenInConfigFileIsRejectedWithAHint() throws {
        for key in ["githubToken", "token", "GITHUB_TOKEN"] {
            let error = try XCTUnwrap(FakeFiles.error(file: "{\"\(key)\": \"\(secret)\"}"))
            XCTAssertEqual(error, .unknownKeys([key], path: ConfigResolver.defaultConfigPath))
            XCTAssertTrue(error.description.contains("GITHUB_TOKEN environment variable only"), error.description)
            XCTAssertFalse(error.description.contains(secret))
        }
    }

    func testTokenWithControlCharactersIsRejectedWithoutShowingIt() throws {
        let error = try XCTUnwrap(FakeFiles.error(environment: ["GITHUB_TOKEN": "\(secret)\r\nX-Evil: 1"]))
        guard case .invalidValue(_, .environment("GITHUB_TOKEN"), _) = error else { return XCTFail("\(error)") }
        XCTAssertFalse(error.description.contains(secret))
        XCTAssertFalse(error.description.contains("Evil"))
    }

    func testEveryDescriptionIsRedacted() throws {
        let config = try FakeFiles.resolve(environment: ["GITHUB_TOKEN": secret])
        let token = try XCTUnwrap(config.githubToken)
        var dumped = ""
        dump(config, to: &dumped)
        var dumpedToken = ""
        dump(token, to: &dumpedToken)
        let renderings = [
            "\(config)", String(reflecting: config), dumped, "\(token)", String(reflecting: token), dumpedToken,
            "\(config.logMetadata)", "\(Mirror(reflecting: config).children.map { "\($0.value)" })",
        ]
        for text in renderings {
            XCTAssertFalse(text.contains(secret), text)
        }
        XCTAssertTrue("\(config)".contains("token=set"))
        XCTAssertEqual(config.logMetadata["token"], "set")
        XCTAssertEqual(ServiceConfig().logMetadata["token"], "unset")
    }

    func testRunnerLogsConfigurationResolvedWithoutTheToken() throws {
        let config = try FakeFiles.resolve(environment: ["GITHUB_TOKEN": secret])
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        ServiceRunner.logConfiguration(config, logger: logger)
        let lines = records.lines
        XCTAssertEqual(lines.count, 1)
        let line = try XCTUnwrap(lines.first)
        XCTAssertTrue(line.hasPrefix("info configuration resolved"), line)
        XCTAssertTrue(line.contains("token=set"), line)
        XCTAssertTrue(line.contains("port=8080"), line)
        XCTAssertTrue(line.contains("http.maxHeaderBytes=16384"), line)
        XCTAssertFalse(line.contains(secret), line)
    }
}

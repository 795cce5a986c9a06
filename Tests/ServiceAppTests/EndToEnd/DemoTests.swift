import HTTPTestSupport
import FakeGithub
import Foundation
import XCTest

@testable import ServiceApp

/// `make demo`'s GitHub (`FakeGithubServer --demo`) behind the service: each demo login gives
/// what `FakeGithubServer --help`, the README and docs/protocol.md promise; the binary answers
/// `--help`.
final class DemoTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        FakeGithubDemo.install(on: fake)
    }

    private func status(_ login: String) throws -> (Int, String) {
        let response = try get("/api/users/\(login)")
        return (response.status, response.text)
    }

    func testEveryDemoLoginAnswersAsDocumented() throws {
        try startService { $0.retry.baseDelay = .milliseconds(5) }
        XCTAssertEqual(try status("heckj").0, 200)
        let made = try status("someone-else")
        XCTAssertEqual(made.0, 200, made.1)
        XCTAssertTrue(made.1.contains(#""login":"someone-else""#), made.1)
        XCTAssertEqual(try status("ghost").0, 404)
        let down = try status("down")
        XCTAssertEqual(down.0, 502, down.1)
        XCTAssertEqual(fake.requestCount(for: "down"), 3, "three attempts")
        let garbled = try status("garbled")
        XCTAssertEqual(garbled.0, 502)
        // A stable message; the decoding error's text stays in the log (issue #31).
        XCTAssertTrue(garbled.1.contains(#""message":"GitHub's answer could not be read""#), garbled.1)
        XCTAssertFalse(garbled.1.contains("DecodingError"), garbled.1)
        let flaky = try status("flaky")
        XCTAssertEqual(flaky.0, 200, flaky.1)
        XCTAssertEqual(fake.requestCount(for: "flaky"), 3, "two 503s, then the user")
        let limited = try get("/api/users/limited")
        XCTAssertEqual(limited.status, 429, limited.text)
        XCTAssertNotNil(limited.header("Retry-After"))
        XCTAssertEqual(Set(FakeGithubDemo.logins.map(\.login)), ["slowpoke", "flaky", "down", "garbled", "ghost", "limited"])
    }

    func testSlowpokeIsSlowAndTheSearchFindsTheDemoLogins() throws {
        try startService()
        let started = Date()
        XCTAssertEqual(try status("slowpoke").0, 200)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 2.9, "answered after 3 s")
        let client = try connect("/ws/search")
        try client.input("o")
        let search = try client.waitFor { $0.type == "search" && $0.query == "o" }
        XCTAssertEqual(search.items?.map(\.login), ["slowpoke", "down"], search.raw)
    }

    /// The pages allow the fake's avatars (its origin is the configured API's), and the fake
    /// serves them: `make demo` shows avatars offline; `/playground` is served.
    func testThePagesShowTheFakesAvatars() throws {
        try startService()
        let page = try get("/playground")
        XCTAssertEqual(page.status, 200)
        let policy = try XCTUnwrap(page.header("Content-Security-Policy"))
        XCTAssertTrue(policy.contains("img-src 'self' https://avatars.githubusercontent.com \(fakeURL.absoluteString); "), policy)
        let user = try get("/api/users/flaky")
        XCTAssertTrue(user.text.contains(#""avatar_url":"\#(fakeURL.absoluteString)/avatars/u/7000002?v=4""#), user.text)
        let avatar = try TestHTTPClient(port: UInt16(try XCTUnwrap(fakeURL.port)), timeout: 10)
            .request("GET /avatars/u/7000002?v=4 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(avatar.status, 200)
        XCTAssertEqual(avatar.header("Content-Type"), "image/svg+xml")
        XCTAssertTrue(avatar.text.contains(">F</text>"), avatar.text)
    }

    func testFakeGithubServerAnswersHelp() throws {
        let binary = try ChildProcess.requiredProduct("FakeGithubServer")
        let child = try ChildProcess(binary, ["--help"])
        XCTAssertEqual(child.waitForExit(timeout: 10), 0, child.output)
        for text in ["USAGE: FakeGithubServer", "--port", "--any-login", "--demo", "slowpoke", "limited"] {
            XCTAssertTrue(child.output.contains(text), "\(text) missing from --help:\n\(child.output)")
        }
    }
}

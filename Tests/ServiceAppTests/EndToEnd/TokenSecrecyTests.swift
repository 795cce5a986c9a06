import FakeGithub
import Foundation
import XCTest

@testable import ServiceApp

/// With `GITHUB_TOKEN` set, the token goes upstream as a bearer token and nowhere else: no
/// WebSocket frame, no REST header or body carries it.
final class TokenSecrecyTests: EndToEndTestCase {
    private let token = "ghp_e2eSecretToken0123456789abcdef"

    func testTokenReachesGithubButNoClient() throws {
        try startService { config in
            config.githubToken = GitHubToken(environmentValue: self.token)
            config.retry.baseDelay = .milliseconds(5)
            config.throttle = .milliseconds(20)
        }
        fake.script("heck", .status(503))
        fake.script("rate", .rateLimitExceeded)
        let client = try connect()
        for value in ["heckj", "nobody", "heck", "-bad", "{oops"] {
            if value.hasPrefix("{") { try client.sendText(value) } else { try client.input(value) }
            if value.hasPrefix("{") {
                try client.waitFor { $0.type == "error" }
            } else {
                try client.result(for: value)
            }
        }
        var seen: [String] = []

        for path in ["/api/users/heckj", "/api/users/nobody", "/api/users/-bad", "/metrics", "/openapi.json", "/", "/healthz", "/nope"] {
            let response = try get(path)
            seen.append(response.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n"))
            seen.append(response.text)
        }
        fake.setFault(.status(500), for: "heckj2")
        let failed = try get("/api/users/heckj2")
        XCTAssertEqual(failed.status, 502)
        seen.append(failed.text)
        // Last, as it spends the rate-limit budget: later lookups are answered locally.
        try client.input("rate")
        XCTAssertEqual(try client.result(for: "rate").status, "rate_limited")
        XCTAssertEqual(try get("/api/users/hec").status, 429)
        try client.drain(for: 0.2)
        seen += [client.hello?.raw ?? ""] + client.events.map(\.raw)
        XCTAssertEqual(client.results.count, 5)

        for text in seen {
            XCTAssertFalse(text.contains(token), "the token leaked: \(text.prefix(300))")
            XCTAssertFalse(text.contains("Bearer"), "an authorization value leaked: \(text.prefix(300))")
        }
        let upstream = fake.requests
        XCTAssertFalse(upstream.isEmpty)
        for request in upstream {
            XCTAssertEqual(request.header("Authorization"), "Bearer \(token)", request.path)
        }
    }
}

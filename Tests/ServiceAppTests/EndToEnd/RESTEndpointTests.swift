import HTTPTestSupport
import FakeGithub
import Foundation
import XCTest

@testable import ServiceApp

/// The HTTP endpoints of the contract, against a service backed by FakeGithub (real time; retry
/// delays shortened).
final class RESTEndpointTests: EndToEndTestCase {
    @discardableResult
    private func startFastRetries(_ configure: (inout ServiceConfig) -> Void = { _ in }) throws -> Service {
        try startService { config in
            config.retry.baseDelay = .milliseconds(5)
            configure(&config)
        }
    }

    private func json(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], response.text)
    }

    private func assertJSONError(
        _ response: TestResponse, _ status: Int, _ code: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(response.status, status, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json", file: file, line: line)
        XCTAssertEqual(try json(response)["error"] as? String, code, response.text, file: file, line: line)
    }

    func testUserFound() throws {
        try startFastRetries()
        let response = try get("/api/users/heckj")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        let user = try json(response)
        XCTAssertEqual(user["login"] as? String, "heckj")
        XCTAssertEqual(user["id"] as? Int, 43388)
        XCTAssertEqual(user["name"] as? String, "Joe Heck")
        XCTAssertEqual(user["public_repos"] as? Int, 69)
        // The fake serves its own avatars (make demo works offline), at its own base URL.
        XCTAssertEqual(user["avatar_url"] as? String, "\(fakeURL.absoluteString)/avatars/u/43388?v=4")
        XCTAssertEqual(user["html_url"] as? String, "https://github.com/heckj")
        let hec = try json(get("/api/users/hec"))
        XCTAssertTrue(hec["name"] is NSNull, "name is null, not absent: \(hec)")
    }

    func testUserGzip() throws {
        try startFastRetries()
        let response = try get("/api/users/heckj", headers: "Accept-Encoding: gzip\r\n")
        XCTAssertEqual(response.status, 200)
        // Small bodies may stay uncompressed; a compressed one says so.
        if response.header("Content-Encoding") != nil {
            XCTAssertEqual(response.header("Content-Encoding"), "gzip")
            XCTAssertEqual(Array(response.body.prefix(2)), [0x1F, 0x8B])
        }
    }

    func testInvalidLoginIs400AndNeverSentUpstream() throws {
        try startFastRetries()
        for login in ["-bad", "a--b", "x%2F..%2Fy", String(repeating: "a", count: 40)] {
            let response = try get("/api/users/\(login)")
            try assertJSONError(response, 400, "invalid_login")
            XCTAssertNotNil(try json(response)["message"] as? String)
        }
        XCTAssertEqual(fake.requestCount, 0)
    }

    func testNotFound() throws {
        try startFastRetries()
        try assertJSONError(get("/api/users/nobody"), 404, "not_found")
        XCTAssertEqual(fake.requestCount(for: "nobody"), 1)
    }

    func testRateLimitedWithRetryAfter() throws {
        try startFastRetries()
        fake.script("heckj", .rateLimitExceeded)
        let response = try get("/api/users/heckj")
        try assertJSONError(response, 429, "rate_limited")
        let retryAfter = try XCTUnwrap(response.header("Retry-After").flatMap(Int.init), "\(response.headers)")
        XCTAssertTrue((1 ... 60).contains(retryAfter), "\(retryAfter)")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1)
    }

    func testUpstreamUnavailableAfterRetries() throws {
        try startFastRetries()
        fake.setFault(.status(502), for: "heckj")
        try assertJSONError(get("/api/users/heckj"), 502, "upstream_unavailable")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 3)
    }

    func testRetryThenSuccess() throws {
        try startFastRetries()
        fake.script("heckj", .status(503), .status(503))
        let response = try get("/api/users/heckj")
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 3)
    }

    func testCacheStatusSaysWhereEachAnswerCameFrom() throws {
        try startFastRetries()
        let fetched = try get("/api/users/heckj")
        XCTAssertEqual(fetched.header("Cache-Status"), "serviceapp; fwd=uri-miss; fwd-status=200; ttl=59; stored")
        XCTAssertNil(fetched.header("Age"))
        let hit = try get("/api/users/heckj")
        XCTAssertEqual(hit.status, 200)
        XCTAssertTrue(hit.header("Cache-Status")?.hasPrefix("serviceapp; hit; ttl=") == true, "\(hit.headers)")
        XCTAssertEqual(hit.header("Age"), "0")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1, "fresh within max-age: no request")
    }

    func testStaleCopyWhenGithubFailsIs200WithCacheStatusAndAge() throws {
        // ttl 0: every lookup revalidates, so the second one meets the failure.
        try startFastRetries { $0.cache.ttl = .zero }
        XCTAssertEqual(try get("/api/users/heckj").status, 200)
        fake.setFault(.status(503), for: "heckj")
        let stale = try get("/api/users/heckj")
        XCTAssertEqual(stale.status, 200, stale.text)
        XCTAssertEqual(try json(stale)["login"] as? String, "heckj")
        let status = try XCTUnwrap(stale.header("Cache-Status"))
        XCTAssertTrue(status.hasPrefix("serviceapp; hit; ttl=") && status.hasSuffix("; detail=stale-if-error"), status)
        XCTAssertNotNil(stale.header("Age").flatMap(Int.init))
        XCTAssertEqual(fake.requestCount(for: "heckj"), 4, "one fetch, then three attempts")
        fake.setFault(.status(503), for: "heck")
        try assertJSONError(get("/api/users/heck"), 502, "upstream_unavailable")
    }

    func testUpstreamTimeout() throws {
        try startFastRetries { $0.upstream.request = .milliseconds(300) }
        fake.setFault(.delay(.milliseconds(3_000)), for: "heckj")
        let started = Date()
        try assertJSONError(get("/api/users/heckj"), 504, "upstream_timeout")
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "timed out, not waited for")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 3, "timeouts are retried")
    }

    func testHealthAndReadiness() throws {
        let service = try startFastRetries()
        let health = try get("/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(try json(health)["status"] as? String, "ok")
        XCTAssertEqual(try get("/readyz").status, 200)

        // A request already on its way when the drain begins is answered: 503.
        let client = try TestHTTPClient(port: port, timeout: 10)
        try client.send("GET /readyz HTTP/1.1\r\nHost: localhost\r\n")
        Thread.sleep(forTimeInterval: 0.2)  // the partial head reaches the server first
        let drained = DispatchSemaphore(value: 0)
        service.shutdown { drained.signal() }
        try client.send("\r\n")
        let readiness = try client.readResponse()
        XCTAssertEqual(readiness.status, 503, readiness.text)
        XCTAssertEqual(readiness.header("Connection")?.lowercased(), "close")
        XCTAssertEqual(drained.wait(timeout: .now() + 10), .success)
        self.service = nil
    }

    func testMetricsExposition() throws {
        try startFastRetries()
        let client = try connect()
        try client.input("heckj")
        try client.result(for: "heckj")
        _ = try get("/api/users/heckj")
        let metrics = try get("/metrics")
        XCTAssertEqual(metrics.status, 200)
        XCTAssertTrue(metrics.header("Content-Type")?.hasPrefix("text/plain") ?? false)
        for name in [
            "http_connections_open", "http_connections_total", "websocket_sessions_open", "websocket_messages_total",
            "github_upstream_requests_total", "github_cache_hits_total", "github_upstream_request_duration_seconds",
            // The lookup waited its turn at the concurrency cap; the REST lookup was a fresh cache hit.
            "github_upstream_queue_wait_seconds", "github_upstream_queue_length", #"github_cache_served_total{source="fresh"}"#,
            "fair_use_tracked_clients",
        ] {
            XCTAssertTrue(metrics.text.contains(name), "\(name) missing from /metrics:\n\(metrics.text)")
        }
    }

    func testEveryUpstreamRequestIsCountedByOutcome() throws {
        // The README walk-through: three REST 200s and a 404 on a fresh instance showed no `ok`
        // line (REST takes the first answer and cancels before the request's completion).
        try startFastRetries()
        let before = try upstreamRequestsByOutcome()
        for login in ["heckj", "heck", "hec"] {
            XCTAssertEqual(try get("/api/users/\(login)").status, 200, login)
        }
        XCTAssertEqual(try get("/api/users/nobody-here").status, 404)
        _ = try get("/api/users/heckj")  // a fresh cache hit: no request
        let after = try upstreamRequestsByOutcome()
        XCTAssertEqual(after["ok", default: 0] - before["ok", default: 0], 3, "\(after)")
        XCTAssertEqual(after["not_found", default: 0] - before["not_found", default: 0], 1, "\(after)")
    }

    /// `github_upstream_requests_total{outcome="…"} N` from `/metrics` (the registry is shared by
    /// every service in the test process, hence the differences above).
    private func upstreamRequestsByOutcome() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let prefix = #"github_upstream_requests_total{outcome=""#
        for line in try get("/metrics").text.split(separator: "\n") where line.hasPrefix(prefix) {
            let rest = line.dropFirst(prefix.count)
            guard let quote = rest.firstIndex(of: "\""), let value = Int(rest.split(separator: " ").last ?? "") else { continue }
            counts[String(rest[..<quote])] = value
        }
        return counts
    }

    func testOpenAPIDocumentParses() throws {
        try startFastRetries()
        let response = try get("/openapi.json")
        XCTAssertEqual(response.status, 200)
        let document = try json(response)
        XCTAssertTrue((document["openapi"] as? String)?.hasPrefix("3.") ?? false)
        let paths = try XCTUnwrap(document["paths"] as? [String: Any])
        for path in ["/healthz", "/readyz", "/metrics", "/api/users/{login}", "/openapi.json"] {
            XCTAssertNotNil(paths[path], path)
        }
    }

    func testBrowserPage() throws {
        try startFastRetries()
        let page = try get("/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.header("Content-Type")?.hasPrefix("text/html") ?? false)
        XCTAssertTrue(page.text.contains(#"id="username""#))
        XCTAssertTrue(page.text.contains(#"id="repos""#))
    }

    func testUnknownPathAndWrongMethod() throws {
        try startFastRetries()
        try assertJSONError(get("/nope"), 404, "not_found")
        let wrong = try get("/healthz", method: "DELETE")
        XCTAssertEqual(wrong.status, 405)
        XCTAssertEqual(wrong.header("Content-Type"), "application/json")
        XCTAssertTrue(wrong.header("Allow")?.contains("GET") ?? false, "\(wrong.headers)")
        let post = try get("/api/users/heckj", method: "POST")
        XCTAssertEqual(post.status, 405)
        XCTAssertNotNil(post.header("Allow"))
    }
}

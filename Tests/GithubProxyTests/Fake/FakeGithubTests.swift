import FakeGithub
import Foundation
import GithubProxy
import StreamCore
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fake itself, through the raw libcurl publisher: fixtures, ETag/304, each fault, the log.
final class FakeGithubTests: FakeGithubTestCase {
    func testFixtureUserHasGithubShapeETagAndRateLimitHeaders() throws {
        let (data, response) = try XCTUnwrap(fetch("users/heckj")).get()
        XCTAssertEqual(response.statusCode, 200)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(json["login"] as? String, "heckj")
        XCTAssertEqual(json["id"] as? Int, 43388)
        XCTAssertEqual(json["name"] as? String, "Joe Heck")
        XCTAssertEqual(json["public_repos"] as? Int, 69)
        XCTAssertEqual(response.value(forHTTPHeaderField: "ETag"), #"W/"u43388v1""#)
        XCTAssertEqual(response.value(forHTTPHeaderField: "x-ratelimit-remaining"), "4999")
        XCTAssertNotNil(response.value(forHTTPHeaderField: "x-ratelimit-reset").flatMap(Int.init))
    }

    func testSeedTraceLogins() throws {
        let repos = try ["hec", "heck", "heckj", "HeckJ"].map { login -> Int? in
            let (data, _) = try XCTUnwrap(fetch("users/\(login)")).get()
            return try JSONDecoder().decode(GithubUser.self, from: data).publicRepos
        }
        XCTAssertEqual(repos, [3, 6, 69, 69])
        let (_, response) = try XCTUnwrap(fetch("users/nobody-here")).get()
        XCTAssertEqual(response.statusCode, 404)
    }

    func testMatchingIfNoneMatchIsNotModifiedAndAnUpdateChangesTheETag() throws {
        let etag = #"W/"u43388v1""#
        XCTAssertEqual(try XCTUnwrap(fetch("users/heckj", headers: ["If-None-Match": etag])).get().response.statusCode, 304)
        XCTAssertEqual(try XCTUnwrap(fetch("users/heckj", headers: ["If-None-Match": #""other""#])).get().response.statusCode, 200)
        fake.update(FakeGithubUser(login: "heckj", id: 43388, name: "Joe Heck", publicRepos: 70))
        let (_, response) = try XCTUnwrap(fetch("users/heckj", headers: ["If-None-Match": etag])).get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.value(forHTTPHeaderField: "ETag"), #"W/"u43388v2""#)
    }

    func testScriptedFaultsAreUsedInOrderThenTheFixture() throws {
        fake.script("heckj", .status(500), .status(502), .status(503), .status(404))
        let codes = try (0..<5).map { _ in try XCTUnwrap(fetch("users/heckj")).get().response.statusCode }
        XCTAssertEqual(codes, [500, 502, 503, 404, 200])
        XCTAssertEqual(fake.requestCount(for: "heckj"), 5)
    }

    func testPersistentFaultUntilCleared() throws {
        fake.setFault(.status(503), for: "heckj")
        XCTAssertEqual(try XCTUnwrap(fetch("users/heckj")).get().response.statusCode, 503)
        XCTAssertEqual(try XCTUnwrap(fetch("users/heckj")).get().response.statusCode, 503)
        fake.setFault(nil, for: "heckj")
        XCTAssertEqual(try XCTUnwrap(fetch("users/heckj")).get().response.statusCode, 200)
    }

    func testRateLimitedAnswersCarryTheHeaders() throws {
        fake.script("heckj", .rateLimited(status: 429, retryAfterSeconds: 7, resetInSeconds: 30), .rateLimitExceeded)
        let (data, first) = try XCTUnwrap(fetch("users/heckj")).get()
        XCTAssertEqual(first.statusCode, 429)
        XCTAssertEqual(first.value(forHTTPHeaderField: "Retry-After"), "7")
        XCTAssertEqual(first.value(forHTTPHeaderField: "x-ratelimit-remaining"), "0")
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("rate limit exceeded"))
        let (_, second) = try XCTUnwrap(fetch("users/heckj")).get()
        XCTAssertEqual(second.statusCode, 403)
        XCTAssertNil(second.value(forHTTPHeaderField: "Retry-After"))
        let reset = try XCTUnwrap(second.value(forHTTPHeaderField: "x-ratelimit-reset").flatMap(Int.init))
        XCTAssertEqual(Double(reset), Date().timeIntervalSince1970 + 60, accuracy: 5)
    }

    func testInvalidJSONIsAnOKAnswerThatDoesNotParse() throws {
        fake.script("heckj", .invalidJSON)
        let (data, response) = try XCTUnwrap(fetch("users/heckj")).get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertThrowsError(try JSONSerialization.jsonObject(with: data))
    }

    func testResetMidBodyIsAConnectionLostMidResponse() throws {
        fake.script("heckj", .resetMidBody)
        guard case .failure(let error)? = fetch("users/heckj") else { return XCTFail("expected a failure") }
        XCTAssertEqual(error.code, .networkConnectionLost)
        XCTAssertTrue(waitUntil { fake.connectionsClosed >= 1 })
    }

    func testDelayedAnswerArrivesAfterTheDelayAndStillParses() throws {
        fake.script("heckj", .delay(.milliseconds(300)))
        let start = Date()
        let (data, response) = try XCTUnwrap(fetch("users/heckj")).get()
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.28)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(try JSONDecoder().decode(GithubUser.self, from: data).login, "heckj")
    }

    func testLogRecordsPathsHeadersAndUnknownPaths() throws {
        _ = fetch("users/heckj", headers: ["X-Probe": "1"])
        _ = fetch("rate_limit")
        let log = fake.requests
        XCTAssertEqual(log.map(\.path), ["/users/heckj", "/rate_limit"])
        XCTAssertEqual(log.map(\.login), ["heckj", nil])
        XCTAssertEqual(log.first?.header("x-probe"), "1")
        XCTAssertEqual(log.first?.method, "GET")
        XCTAssertEqual(fake.requestCount, 2)
        fake.clearLog()
        XCTAssertTrue(fake.requests.isEmpty)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 0)
    }

    func testConnectionsAreCountedAndReused() throws {
        for _ in 0..<3 { _ = fetch("users/heckj") }
        XCTAssertEqual(fake.connectionsOpened, 1, "curl keeps the connection alive")
        XCTAssertEqual(fake.openConnections, 1)
        http = nil  // the multi handle's cleanup closes its pooled connection
        XCTAssertTrue(waitUntil { fake.connectionsClosed == 1 })
    }
}

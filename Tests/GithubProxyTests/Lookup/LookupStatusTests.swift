import FakeGithub
import Foundation
import HTTPTestSupport
import GithubProxy
import StreamCore
import XCTest

/// Every `LookupResult` status, end to end against the fake.
final class LookupStatusTests: FakeGithubTestCase {
    func testFoundForTheSeedTrace() throws {
        let client = makeClient()
        let results = ["h", "he", "hec", "heck", "heckj"].map { lookup($0, with: client) }
        XCTAssertEqual(results.map { $0?.status }, [.tooShort, .tooShort, .found, .found, .found])
        XCTAssertEqual(results.map { $0?.users.first?.publicRepos }, [nil, nil, 3, 6, 69])
        let heckj = try XCTUnwrap(results.last??.users.first)
        XCTAssertEqual(heckj, GithubUser(
            login: "heckj", id: 43388, name: "Joe Heck", publicRepos: 69,
            avatarURL: "\(baseURL.absoluteString)/avatars/u/43388?v=4", htmlURL: "https://github.com/heckj"))
        XCTAssertEqual(fake.requests.compactMap(\.login), ["hec", "heck", "heckj"], "too short inputs send nothing")
    }

    func testNotFoundIsNotRetried() {
        let result = lookup("nobody-here", with: makeClient())
        XCTAssertEqual(result, LookupResult(query: "nobody-here", status: .notFound, failure: .notFound))
        XCTAssertEqual(fake.requestCount(for: "nobody-here"), 1)
    }

    func testTooShortSendsNothing() {
        XCTAssertEqual(lookup("he", with: makeClient()), LookupResult(query: "he", status: .tooShort))
        XCTAssertEqual(fake.requestCount, 0)
    }

    func testInvalidLoginsNeverReachTheUpstream() {
        let client = makeClient()
        for input in ["../x", "heck/../../rate_limit", "a b c", "-heck", "heck-", "he--ck", "héck", "x?y=1", String(repeating: "a", count: 40)] {
            XCTAssertEqual(lookup(input, with: client)?.status, .invalid, input)
        }
        XCTAssertEqual(fake.requestCount, 0)
        XCTAssertTrue(fake.requests.isEmpty)
    }

    /// `user(login:)` is public too: an invalid login fails there without a request (it used to trap).
    func testUserWithAnInvalidLoginFailsWithoutARequest() {
        let client = makeClient()
        let failure = Box<GithubError?>(nil)
        let done = expectation(description: "done")
        let cancellable = client.user(login: "../x").sink(receiveCompletion: { completion in
            if case .failure(let error) = completion { failure.mutate { $0 = error } }
            done.fulfill()
        }, receiveValue: { _ in XCTFail("no user") })
        wait(for: [done], timeout: 5)
        cancellable.cancel()
        XCTAssertEqual(failure.value, .notFound)
        XCTAssertEqual(fake.requestCount, 0)
    }

    func testRateLimited403ThenAnsweredLocallyWithoutARequest() {
        fake.script("heckj", .rateLimitExceeded)
        let budget = RateLimitBudget()
        let client = makeClient(budget: budget)
        let first = lookup("heckj", with: client)
        XCTAssertEqual(first?.status, .rateLimited)
        guard case .rateLimited(let wait)? = first?.failure else { return XCTFail("rate limit failure expected") }
        XCTAssertEqual(Double(wait), 60, accuracy: 3)
        XCTAssertEqual(fake.requestCount, 1)

        // The budget is spent: other logins are answered without a request until the reset.
        XCTAssertEqual(lookup("heck", with: client)?.status, .rateLimited)
        XCTAssertEqual(lookup("heckj", with: client)?.status, .rateLimited)
        XCTAssertEqual(fake.requestCount, 1)
        XCTAssertNotNil(budget.secondsUntilReset())
    }

    func testRateLimited429WithRetryAfter() {
        fake.script("heckj", .rateLimited(status: 429, retryAfterSeconds: 7, resetInSeconds: 600))
        let result = lookup("heckj", with: makeClient())
        XCTAssertEqual(result?.status, .rateLimited)
        XCTAssertEqual(result?.failure, .rateLimited(retryAfterSeconds: 7))
        XCTAssertEqual(fake.requestCount, 1, "a rate limit is not retried")
    }

    func testSpentBudgetOnASuccessfulAnswerBlocksTheNextLookup() {
        fake.rateLimitRemaining = 0
        let client = makeClient()
        XCTAssertEqual(lookup("heckj", with: client)?.status, .found, "the answer itself is still served")
        XCTAssertEqual(lookup("heck", with: client)?.status, .rateLimited)
        XCTAssertEqual(fake.requestCount, 1)
    }

    func testUnavailableAfterRetriesOfEvery5xx() {
        for code in [500, 502, 503] {
            fake.clearLog()
            fake.setFault(.status(code), for: "heckj")
            let result = lookup("heckj", with: makeClient())
            XCTAssertEqual(result?.status, .unavailable, "\(code)")
            XCTAssertEqual(result?.failure, .unavailable("HTTP \(code)"))
            XCTAssertEqual(fake.requestCount(for: "heckj"), 3, "1 attempt + 2 retries for \(code)")
        }
    }

    func testTransientFailuresThenSuccessIsFound() {
        fake.script("heckj", .status(502), .resetMidBody)
        let result = lookup("heckj", with: makeClient())
        XCTAssertEqual(result?.status, .found)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 3)
    }

    func testInvalidJSONIsUnavailableWithoutRetry() {
        fake.script("heckj", .invalidJSON)
        let result = lookup("heckj", with: makeClient())
        XCTAssertEqual(result?.status, .unavailable)
        guard case .invalidResponse? = result?.failure else { return XCTFail("invalidResponse expected") }
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1)
    }

    func testTimeoutIsRetriedThenUnavailable() {
        http = CurlHTTPClient(configuration: .init(requestTimeout: .milliseconds(150)))
        fake.setFault(.delay(.milliseconds(2_000)), for: "heckj")
        let result = lookup("heckj", with: makeClient(retry: RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(1), jitter: 0)))
        XCTAssertEqual(result, LookupResult(query: "heckj", status: .unavailable, failure: .timeout))
        XCTAssertEqual(fake.requestCount(for: "heckj"), 2)
    }

    func testRefusedConnectionIsUnavailable() {
        fake.stop()
        let result = lookup("heckj", with: makeClient(retry: RetryPolicy(maxRetries: 0)))
        XCTAssertEqual(result?.status, .unavailable)
    }
}

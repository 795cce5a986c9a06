import Foundation
@testable import GithubProxy
import HTTPTestSupport
import StreamCore
import XCTest

/// One upstream attempt: the gate and the budget before the transfer, for users and search alike.
final class UpstreamAttemptTests: FakeGithubTestCase {
    private func userRequest(_ client: GithubClient, _ login: String) -> UpstreamRequest<Int> {
        UpstreamRequest(request: client.request(for: login, etag: nil)) { _, response in
            guard response.statusCode == 200 else { throw GithubError(statusCode: response.statusCode, rateLimitWait: nil) }
            return response.statusCode
        }
    }

    func testAnOpenBudgetSendsOneRequestAndReadsItsAnswer() {
        let outcomes = Box<[String]>([])
        let client = makeClient(events: GithubClientEvents(onRequest: { outcome, _ in outcomes.mutate { $0.append(outcome) } }))
        let result = outcome(of: client.upstreamAttempt("core") { self.userRequest(client, "heckj") })
        XCTAssertEqual(result.values, [200])
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1)
        XCTAssertEqual(outcomes.value, ["ok"])
    }

    func testAPausedResourceSendsNothingAndAnotherResourceIsNotHeldUp() {
        let outcomes = Box<[String]>([])
        let client = makeClient(events: GithubClientEvents(onRequest: { outcome, _ in outcomes.mutate { $0.append(outcome) } }))
        client.searchBudget.pause(seconds: 30)
        let prepared = Box(0)
        let paused = outcome(of: client.upstreamAttempt("search") { () -> UpstreamRequest<Int> in
            prepared.mutate { $0 += 1 }
            return self.userRequest(client, "heckj")
        })
        guard case .failure(.rateLimited(let wait)) = paused.completion else {
            return XCTFail("a paused resource fails rateLimited: \(String(describing: paused.completion))")
        }
        XCTAssertTrue((29...30).contains(wait), "\(wait)")
        XCTAssertEqual(prepared.value, 0, "no request was even prepared")
        XCTAssertEqual(fake.requestCount, 0)
        XCTAssertEqual(outcome(of: client.upstreamAttempt("core") { self.userRequest(client, "heckj") }).values, [200],
                       "search's pause leaves core alone")
        XCTAssertEqual(outcomes.value, ["rate_limited_locally", "ok"])
    }
}

import FakeGithub
import Foundation
import GithubProxy
import HTTPTestSupport
import StreamCore
import XCTest

/// A lookup or search known at once to be refused — GitHub's limit for its resource paused
/// here, or the caller's allowance spent — reports no `activity` (which means "a request goes
/// out") and is not charged: its `rate_limited` result comes alone (issue #31).
final class RefusedAtOnceTests: FakeGithubTestCase {
    /// An allowance that is spent, and says so when asked first.
    private final class SpentQuota: UpstreamQuota, @unchecked Sendable {
        // Sendable: `spent` is a Box.
        let spent = Box(0)

        func spend() -> Int? {
            spent.mutate { $0 += 1 }
            return 30
        }

        func refusalIfSpent() -> Int? { 30 }
    }

    /// The activity events of one lookup (or search) run to its result, and the result.
    private func run<Result>(_ make: (NetworkActivity) -> AnyPublisher<Result, Never>) -> (Result?, [Bool]) {
        let activity = NetworkActivity()
        let events = Box<[Bool]>([])
        let watching = activity.publisher.sink { value in events.mutate { $0.append(value) } }
        defer { watching.cancel() }
        let result = outcome(of: make(activity)).values.first
        return (result, events.value)
    }

    func testALookupWhileCoreIsPausedReportsNoActivity() {
        fake.script("heckj", .rateLimitExceeded)
        let client = makeClient()
        let (first, firstActivity) = run { client.retrieveGithubUser(username: "heckj", activity: $0) }
        XCTAssertEqual(first?.status, .rateLimited)
        XCTAssertEqual(firstActivity, [true, false], "the request that met the limit went out")
        let (second, secondActivity) = run { client.retrieveGithubUser(username: "heck", activity: $0) }
        XCTAssertEqual(second?.status, .rateLimited)
        XCTAssertEqual(secondActivity, [], "paused: nothing goes out, no activity")
        XCTAssertEqual(fake.requestCount, 1)
    }

    func testALookupWithASpentAllowanceReportsNoActivityAndIsNotCharged() {
        let quota = SpentQuota()
        let (result, activity) = run { makeClient().retrieveGithubUser(username: "heckj", activity: $0, quota: quota) }
        XCTAssertEqual(result?.status, .rateLimited)
        XCTAssertEqual(result?.failure, .clientRateLimited(retryAfterSeconds: 30))
        XCTAssertEqual(activity, [])
        XCTAssertEqual(quota.spent.value, 0, "refused before the charge")
        XCTAssertEqual(fake.requestCount, 0)
    }

    func testASearchWhileSearchIsPausedOrWithASpentAllowanceReportsNoActivity() {
        fake.scriptSearch(.rateLimitExceeded)
        let client = makeClient()
        let (first, firstActivity) = run { client.search(query: "heck", activity: $0) }
        XCTAssertEqual(first?.status, .rateLimited)
        XCTAssertEqual(firstActivity, [true, false])
        let (second, secondActivity) = run { client.search(query: "hec", activity: $0) }
        XCTAssertEqual(second?.status, .rateLimited)
        XCTAssertEqual(secondActivity, [])
        XCTAssertEqual(fake.searchQueries.count, 1)

        let (spent, spentActivity) = run { makeClient().search(query: "heck", activity: $0, quota: SpentQuota()) }
        XCTAssertEqual(spent?.status, .rateLimited)
        XCTAssertEqual(spentActivity, [])
    }
}

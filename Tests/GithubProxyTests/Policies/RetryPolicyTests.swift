import GithubProxy
import XCTest

final class RetryPolicyTests: XCTestCase {
    func testDelaysGrowExponentiallyUpToTheCap() {
        let policy = RetryPolicy(maxRetries: 5, baseDelayMilliseconds: 100, maxDelayMilliseconds: 1_000, jitter: 0)
        XCTAssertEqual((0..<6).map { policy.delayMilliseconds(beforeRetry: $0, random: 0.7) }, [100, 200, 400, 800, 1_000, 1_000])
    }

    func testJitterShortensWithinItsFraction() {
        let policy = RetryPolicy(maxRetries: 2, baseDelayMilliseconds: 200, maxDelayMilliseconds: 5_000, jitter: 0.5)
        XCTAssertEqual(policy.delayMilliseconds(beforeRetry: 1, random: 0), 400)
        XCTAssertEqual(policy.delayMilliseconds(beforeRetry: 1, random: 0.5), 300)
        XCTAssertEqual(policy.delayMilliseconds(beforeRetry: 1, random: 0.999_999), 200)
    }

    func testDefaultRetriesTransientFailuresAtLeastTwice() {
        XCTAssertGreaterThanOrEqual(RetryPolicy().maxRetries, 2)
    }
}

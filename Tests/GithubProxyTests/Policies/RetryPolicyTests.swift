import GithubProxy
import XCTest

final class RetryPolicyTests: XCTestCase {
    func testDelaysGrowExponentiallyUpToTheCap() {
        let policy = RetryPolicy(maxRetries: 5, baseDelay: .milliseconds(100), maxDelay: .milliseconds(1_000), jitter: 0)
        XCTAssertEqual((0..<6).map { policy.delay(beforeRetry: $0, random: 0.7) }, [100, 200, 400, 800, 1_000, 1_000].map { Duration.milliseconds($0) })
    }

    func testJitterShortensWithinItsFraction() {
        let policy = RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(200), maxDelay: .milliseconds(5_000), jitter: 0.5)
        XCTAssertEqual(policy.delay(beforeRetry: 1, random: 0), .milliseconds(400))
        XCTAssertEqual(policy.delay(beforeRetry: 1, random: 0.5), .milliseconds(300))
        XCTAssertEqual(policy.delay(beforeRetry: 1, random: 0.999_999), .milliseconds(200))
    }

    func testDefaultRetriesTransientFailuresAtLeastTwice() {
        XCTAssertGreaterThanOrEqual(RetryPolicy().maxRetries, 2)
    }
}

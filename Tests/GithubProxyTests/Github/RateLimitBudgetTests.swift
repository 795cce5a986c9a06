import Foundation
import GithubProxy
import XCTest

final class RateLimitBudgetTests: XCTestCase {
    func testSpentLimitBlocksUntilReset() {
        let clock = TestClock()
        let budget = RateLimitBudget(now: clock.now)
        let reset = Int(clock.now().timeIntervalSince1970) + 30
        let headers = ["x-ratelimit-remaining": "0", "x-ratelimit-reset": "\(reset)"]
        XCTAssertEqual(budget.update(statusCode: 200, header: { headers[$0] }), 30)
        XCTAssertEqual(budget.secondsUntilReset(), 30)
        clock.advance(29.5)
        XCTAssertEqual(budget.secondsUntilReset(), 1)
        clock.advance(1)
        XCTAssertNil(budget.secondsUntilReset())
    }

    func testRemainingBudgetDoesNotBlock() {
        let budget = RateLimitBudget()
        let headers = ["x-ratelimit-remaining": "12", "x-ratelimit-reset": "1"]
        XCTAssertNil(budget.update(statusCode: 200, header: { headers[$0] }))
        XCTAssertNil(budget.secondsUntilReset())
    }

    func testRetryAfterOnTooManyRequests() {
        let clock = TestClock()
        let budget = RateLimitBudget(now: clock.now)
        XCTAssertEqual(budget.update(statusCode: 429, header: { $0 == "Retry-After" ? "7" : nil }), 7)
        XCTAssertEqual(budget.secondsUntilReset(), 7)
    }
}

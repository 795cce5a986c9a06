import Foundation
import GithubProxy
import HTTPTestSupport
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

    private let secondaryBody = Data(#"{"message":"You have exceeded a secondary rate limit. Please wait a few minutes."}"#.utf8)

    func testSecondaryLimitWithoutRetryAfterPausesAMinuteThenDoubles() {
        let clock = TestClock()
        let budget = RateLimitBudget(now: clock.now)
        let quotaLeft = ["x-ratelimit-remaining": "4000"]
        XCTAssertEqual(budget.read(statusCode: 403, header: { quotaLeft[$0] }, body: secondaryBody), .init(kind: .secondary, seconds: 60))
        XCTAssertEqual(budget.secondsUntilReset(), 60)
        clock.advance(60)
        XCTAssertNil(budget.secondsUntilReset())
        XCTAssertEqual(budget.update(statusCode: 403, header: { quotaLeft[$0] }, body: secondaryBody), 120, "repeats: doubles")
        clock.advance(120)
        XCTAssertEqual(budget.update(statusCode: 429, header: { quotaLeft[$0] }, body: secondaryBody), 240)
        clock.advance(240)
        XCTAssertNil(budget.update(statusCode: 200, header: { quotaLeft[$0] }))
        XCTAssertEqual(budget.update(statusCode: 403, header: { quotaLeft[$0] }, body: secondaryBody), 60, "a success resets the back-off")
    }

    func testAnyRetryAfterOnA403IsASecondaryPause() {
        let clock = TestClock()
        let budget = RateLimitBudget(now: clock.now)
        let headers = ["Retry-After": "17", "x-ratelimit-remaining": "4000"]
        XCTAssertEqual(budget.read(statusCode: 403, header: { headers[$0] }), .init(kind: .secondary, seconds: 17))
    }

    func testA403WithoutLimitSignsIsNoPause() {
        let budget = RateLimitBudget()
        let headers = ["x-ratelimit-remaining": "4000"]
        XCTAssertNil(budget.update(statusCode: 403, header: { headers[$0] }, body: Data(#"{"message":"Forbidden"}"#.utf8)))
        XCTAssertNil(budget.secondsUntilReset())
    }

    func testResourcesArePausedApart() {
        let limits = RateLimits()
        let spent = ["x-ratelimit-remaining": "0", "x-ratelimit-resource": "search"]
        limits.budget(for: "search").update(statusCode: 403, header: { spent[$0] })
        XCTAssertNotNil(limits.budget(for: "search").secondsUntilReset())
        XCTAssertNil(limits.budget(for: "core").secondsUntilReset())
        XCTAssertTrue(limits.budget(for: "SEARCH") === limits.budget(for: "search"))
    }

    /// The caller's `header` closure runs outside the budget's lock: one that asks the budget
    /// something from another thread gets an answer.
    func testHeaderLookupsRunOutsideTheLock() {
        let budget = RateLimitBudget()
        let answered = Box(true)
        let headers = ["x-ratelimit-remaining": "0", "x-ratelimit-reset": "\(Int(Date().timeIntervalSince1970) + 30)"]
        let seconds = budget.update(statusCode: 200, header: { name in
            let finished = finishesOnAnotherThread { _ = budget.secondsUntilReset() }
            answered.mutate { $0 = $0 && finished }
            return headers[name]
        })
        XCTAssertTrue(answered.value, "a header lookup waited for the budget's lock")
        XCTAssertNotNil(seconds)
    }
}

import Dispatch
@testable import ServiceApp
import XCTest

/// The cached-answer clock fed in memory: what it times, and what it leaves out.
final class CachedResultClockTests: XCTestCase {
    private func at(_ milliseconds: UInt64) -> DispatchTime { DispatchTime(uptimeNanoseconds: 1_000_000_000 + milliseconds * 1_000_000) }

    func testAnswerWithoutUpstreamIsTimedFromTheThrottleWithTheInputsWay() {
        var clock = CachedResultClock()
        clock.inputArrived(cost: .microseconds(30))
        clock.throttled(at: at(500))
        XCTAssertEqual(clock.resultWritten(at: at(502)), .milliseconds(2) + .microseconds(30))
        XCTAssertEqual(clock.state, .idle)
    }

    func testAnswerThatWentUpstreamIsNotTimed() {
        var clock = CachedResultClock()
        clock.throttled(at: at(500))
        clock.wentUpstream()
        XCTAssertNil(clock.resultWritten(at: at(560)))
        XCTAssertEqual(clock.state, .idle)
    }

    func testResultWithNoValueOnItsWayIsNotTimed() {
        var clock = CachedResultClock()
        XCTAssertNil(clock.resultWritten(at: at(1)))
        clock.throttled(at: at(10))
        XCTAssertNotNil(clock.resultWritten(at: at(11)))
        XCTAssertNil(clock.resultWritten(at: at(12)), "one value, one timed result")
    }

    /// A value the throttle lets through later replaces an earlier one still on its way (the
    /// earlier lookup is cancelled by switchToLatest), and a new upstream lookup is forgotten
    /// once the next value leaves the throttle.
    func testTheLatestThrottledValueIsTheOneTimed() {
        var clock = CachedResultClock()
        clock.throttled(at: at(0))
        clock.wentUpstream()
        clock.inputArrived(cost: .zero)
        clock.throttled(at: at(500))
        XCTAssertEqual(clock.resultWritten(at: at(501)), .milliseconds(1))
    }

    /// A clock that reads earlier than the throttle's stamp (another thread's) counts no time.
    func testNoNegativeDurations() {
        var clock = CachedResultClock()
        clock.throttled(at: at(10))
        XCTAssertEqual(clock.resultWritten(at: at(9)), .zero)
    }
}

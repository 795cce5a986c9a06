import Dispatch
import XCTest

@testable import HTTPServer

/// `Epoll.wait`'s timeout: to the nanosecond with `epoll_pwait2`, in whole milliseconds rounded
/// up without it; never shorter than asked.
final class EpollTests: XCTestCase {
    func testMillisecondTimeoutsRoundUp() {
        XCTAssertEqual(Epoll.milliseconds(roundingUp: 0), 0)
        XCTAssertEqual(Epoll.milliseconds(roundingUp: 1), 1)
        XCTAssertEqual(Epoll.milliseconds(roundingUp: 999_999), 1)
        XCTAssertEqual(Epoll.milliseconds(roundingUp: 1_000_000), 1)
        XCTAssertEqual(Epoll.milliseconds(roundingUp: 1_000_001), 2)
        XCTAssertEqual(Epoll.milliseconds(roundingUp: .max), .max)
    }

    func testAWaitWithNothingReadyEndsAtItsTimeoutNotBefore() throws {
        let epoll = try Epoll()
        Epoll.setTimerSlack(nanoseconds: 0)
        XCTAssertEqual(Epoll.timerSlack, 1)
        for timeout in [UInt64(0), 1_500_000, 20_000_000] {
            let started = DispatchTime.now().uptimeNanoseconds
            let ready = epoll.wait(timeoutNanoseconds: timeout) { _ in XCTFail("nothing is registered") }
            XCTAssertEqual(ready, 0)
            XCTAssertGreaterThanOrEqual(DispatchTime.now().uptimeNanoseconds - started, timeout)
        }
    }

    func testAWakeEndsAWaitAtOnceAndIsReportedWithItsToken() throws {
        let epoll = try Epoll()
        epoll.wake()
        var tokens: [UInt64] = []
        XCTAssertEqual(epoll.wait(timeoutNanoseconds: 10_000_000_000) { tokens.append($0.token) }, 1)
        XCTAssertEqual(tokens, [Epoll.wakeToken])
        XCTAssertEqual(epoll.wait(timeoutNanoseconds: 0) { _ in XCTFail("the wake-up was consumed") }, 0)
    }
}

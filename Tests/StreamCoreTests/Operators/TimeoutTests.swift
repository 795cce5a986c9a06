import Dispatch
import StreamCore
import XCTest

/// `timeout` as the book describes it: "terminates publishing if the upstream publisher exceeds
/// the specified time interval without producing an element"; without a custom error it "will
/// not generate a failure completion", only a completion.
final class TimeoutTests: XCTestCase {
    func testFinishesWhenUpstreamIsSilentTooLong() {
        assertMarbles(input: "a-b------c", expected: "a-b--|") { upstream, scheduler in
            upstream.timeout(.milliseconds(300), scheduler: scheduler).eraseToAnyPublisher()
        }
    }

    func testFailsWithCustomError() {
        assertMarbles(input: "a-b------c", expected: "a-b--#") { upstream, scheduler in
            upstream.timeout(.milliseconds(300), scheduler: scheduler, customError: { .boom }).eraseToAnyPublisher()
        }
    }

    func testClockStartsAtSubscriptionAndUpstreamCompletionWins() {
        assertMarbles(input: "-----a", expected: "---|") { upstream, scheduler in
            upstream.timeout(.milliseconds(300), scheduler: scheduler).eraseToAnyPublisher()
        }
        assertMarbles(input: "ab|", expected: "ab|") { upstream, scheduler in
            upstream.timeout(.milliseconds(300), scheduler: scheduler, customError: { .boom }).eraseToAnyPublisher()
        }
    }

    func testTimeoutCancelsUpstream() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.timeout(.seconds(1), scheduler: scheduler, customError: { .other(1) }).subscribe(recorder)
        scheduler.advance(by: .seconds(1))
        XCTAssertTrue(upstream.cancelled)
        XCTAssertEqual(recorder.completions.count, 1)
        upstream.send(1)
        scheduler.run()
        XCTAssertEqual(recorder.values, [])
    }

    /// A synchronous source (`Just`) delivers during subscription: its value must not be lost,
    /// and the deadline must not complete it a second time.
    func testAValueSentDuringSubscriptionIsDelivered() {
        let scheduler = DispatchQueue.test
        let recorder = Recorder<Int, Never>(initialDemand: .unlimited)
        Just(7).timeout(.seconds(1), scheduler: scheduler).subscribe(recorder)
        scheduler.advance()
        XCTAssertEqual(recorder.values, [7])
        XCTAssertEqual(recorder.completions.count, 1)
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(recorder.completions.count, 1, "completed once, not again at the deadline")
    }
}

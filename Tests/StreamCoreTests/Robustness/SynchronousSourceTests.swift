import Dispatch
import StreamCore
import XCTest

/// Issue #11's audit: every operator that takes a scheduler, fed by a source that delivers during
/// subscription (`Just`, `CurrentValueSubject`, sequences), delivers that value — as Apple's do.
final class SynchronousSourceTests: XCTestCase {
    private func record<P: Publisher>(_ publisher: P, advancing scheduler: TestSchedulerOf<DispatchQueue>) -> ([P.Output], Int)
    where P.Failure == Never {
        let recorder = Recorder<P.Output, Never>(initialDemand: .unlimited)
        publisher.subscribe(recorder)
        scheduler.advance(by: .seconds(5))
        return (recorder.values, recorder.completions.count)
    }

    func testReceiveOnDelayTimeoutThrottleAndCollectDeliverAJustsValue() {
        let scheduler = DispatchQueue.test
        XCTAssertEqual(record(Just(7).receive(on: scheduler), advancing: scheduler).0, [7], "receive(on:)")
        XCTAssertEqual(record(Just(7).delay(for: .seconds(1), scheduler: scheduler), advancing: scheduler).0, [7], "delay")
        XCTAssertEqual(record(Just(7).timeout(.seconds(1), scheduler: scheduler), advancing: scheduler).0, [7], "timeout")
        XCTAssertEqual(record(Just(7).throttle(for: .seconds(1), scheduler: scheduler, latest: false), advancing: scheduler).0, [7], "throttle")
        XCTAssertEqual(record(Just(7).collect(.byTime(scheduler, .seconds(1))), advancing: scheduler).0, [[7]], "collect(.byTime)")
        XCTAssertEqual(record([1, 2, 3].publisher.receive(on: scheduler), advancing: scheduler).0, [1, 2, 3], "a sequence")
        let (values, completions) = record(CurrentValueSubject<Int, Never>(5).timeout(.seconds(1), scheduler: scheduler), advancing: scheduler)
        XCTAssertEqual(values, [5], "CurrentValueSubject's current value")
        XCTAssertEqual(completions, 1, "then silence: timed out")
    }
}

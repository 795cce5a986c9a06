import Dispatch
import StreamCore
import XCTest

final class DebounceTests: XCTestCase {
    func testEmitsLastValueAfterQuietPeriod() {
        assertMarbles(input: "abc---d----", expected: "----c---d") { upstream, scheduler in
            upstream.debounce(for: .milliseconds(200), scheduler: scheduler).eraseToAnyPublisher()
        }
    }

    func testCompletionDiscardsPendingValue() {
        // As in Combine: a finish or failure is delivered at once and the waiting value is lost.
        assertMarbles(input: "ab|", expected: "--|") { upstream, scheduler in
            upstream.debounce(for: .milliseconds(200), scheduler: scheduler).eraseToAnyPublisher()
        }
        assertMarbles(input: "a---b#", expected: "--a--#") { upstream, scheduler in
            upstream.debounce(for: .milliseconds(200), scheduler: scheduler).eraseToAnyPublisher()
        }
    }

    func testValueDueWithoutDemandIsDropped() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        XCTAssertEqual(upstream.requests, [.unlimited])
        upstream.send(1)
        scheduler.advance(by: .seconds(2))
        recorder.request(.max(1))
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(recorder.values, [], "the value was due while there was no demand")
        upstream.send(2)
        upstream.send(3)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(recorder.values, [3])
    }

    func testCancelStopsPendingValue() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<Int, Never>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        scheduler.run()
        XCTAssertEqual(recorder.values, [])
        XCTAssertTrue(upstream.cancelled)
    }
}

final class DelayTests: XCTestCase {
    func testShiftsValuesAndCompletion() {
        assertMarbles(input: "ab-c|", expected: "--ab-c|") { upstream, scheduler in
            upstream.delay(for: .milliseconds(200), scheduler: scheduler).eraseToAnyPublisher()
        }
        assertMarbles(input: "a#", expected: "-a#") { upstream, scheduler in
            upstream.delay(for: .milliseconds(100), scheduler: scheduler).eraseToAnyPublisher()
        }
    }

    func testDemandPassesThrough() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        XCTAssertEqual(upstream.requests, [.max(2)])
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(recorder.values, [1])
        XCTAssertEqual(upstream.requests, [.max(2), .max(1)])
    }

    func testCancelDropsScheduledValues() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .finished)
        recorder.cancel()
        scheduler.run()
        XCTAssertEqual(recorder.events.count, 1, "only the subscription")
        XCTAssertTrue(upstream.cancelled)
    }
}

final class MeasureIntervalTests: XCTestCase {
    func testMeasuresTimeSinceSubscriptionThenBetweenValues() {
        let scheduler = DispatchQueue.test
        let upstream = PassthroughSubject<String, Never>()
        let recorder = Recorder<NanosecondStride, Never>()
        upstream.measureInterval(using: scheduler).subscribe(recorder)
        scheduler.advance(by: .milliseconds(100))
        upstream.send("a")
        scheduler.advance(by: .milliseconds(250))
        upstream.send("b")
        upstream.send("c")
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.values, [.milliseconds(100), .milliseconds(250), .zero])
        XCTAssertEqual(recorder.completions.count, 1)
    }

    func testDemandPassesThrough() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<NanosecondStride, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        upstream.measureInterval(using: scheduler).subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        XCTAssertEqual(upstream.requests, [.max(1), .max(2)])
        XCTAssertTrue(upstream.cancelled)
    }
}

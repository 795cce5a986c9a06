import StreamCore
import XCTest

final class WithLatestFromTests: XCTestCase {
    func testEmitsOnlyWhenUpstreamEmitsAndOtherHasAValue() {
        let upstream = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<String, Never>()
        let recorder = Recorder<String, Never>()
        upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(recorder)
        upstream.send(1) // dropped: other has nothing yet
        other.send("a")
        other.send("b")
        XCTAssertEqual(recorder.values, [])
        upstream.send(2)
        other.send("c")
        upstream.send(3)
        upstream.send(4)
        XCTAssertEqual(recorder.values, ["2b", "3c", "4c"])
    }

    func testTupleForm() {
        let recorder = Recorder<String, Never>()
        [1, 2].publisher.withLatestFrom(Just("x")).map { "\($0.0)\($0.1)" }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value("1x"), .value("2x"), .completion(.finished)])
    }

    func testFinishesWithUpstreamNotWithOther() {
        let upstream = PassthroughSubject<Int, Never>()
        let other = TrackedSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        upstream.withLatestFrom(other, resultSelector: +).subscribe(recorder)
        XCTAssertEqual(other.requests, [.unlimited])
        other.send(10)
        other.send(completion: .finished)
        upstream.send(1)
        XCTAssertEqual(recorder.values, [11], "other's last value stays in use")
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.completions, [.finished])
    }

    func testUpstreamFinishCancelsOther() {
        let other = TrackedSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        Empty<Int, Never>().withLatestFrom(other, resultSelector: +).subscribe(recorder)
        XCTAssertEqual(recorder.completions, [.finished])
        XCTAssertEqual(other.cancels, 1)
    }

    func testHonoursDemandWithoutLosingItToDroppedValues() {
        let other = CurrentValueSubject<Int, Never>(100)
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.withLatestFrom(other, resultSelector: +).subscribe(recorder)
        XCTAssertEqual(recorder.values, [101, 102])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [101, 102, 103])
    }

    func testOtherFailureFailsAndCancelsUpstream() {
        let upstream = TrackedSubject<Int, TestError>()
        let other = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        upstream.withLatestFrom(other, resultSelector: +).subscribe(recorder)
        other.send(completion: .failure(.boom))
        upstream.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
        XCTAssertEqual(upstream.cancels, 1)

        let early = Recorder<Int, TestError>()
        Just(1).setFailureType(to: TestError.self)
            .withLatestFrom(Fail<Int, TestError>(error: .other(1)), resultSelector: +).subscribe(early)
        XCTAssertEqual(early.events, [.subscription, .completion(.failure(.other(1)))])
    }

    func testCancelCancelsBothAndReleases() {
        let upstream = TrackedSubject<Int, Never>()
        let other = TrackedSubject<Int, Never>()
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            upstream.withLatestFrom(other, resultSelector: +).subscribe(recorder)
            recorder.cancel()
        }
        XCTAssertEqual([upstream.cancels, other.cancels], [1, 1])
        XCTAssertNil(weakRecorder)
    }
}

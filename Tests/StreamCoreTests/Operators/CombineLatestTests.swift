import StreamCore
import XCTest

private struct Pair: Equatable {
    let left: Int
    let right: String
}

final class CombineLatestTests: XCTestCase {
    func testEmitsOnceAllHaveProducedThenOnEveryValue() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<String, TestError>()
        let recorder = Recorder<Pair, TestError>()
        a.combineLatest(b) { Pair(left: $0, right: $1) }.subscribe(recorder)
        a.send(1)
        a.send(2)
        XCTAssertEqual(recorder.values, [], "nothing until every input has produced")
        b.send("x")
        a.send(3)
        b.send("y")
        XCTAssertEqual(recorder.values, [Pair(left: 2, right: "x"), Pair(left: 3, right: "x"), Pair(left: 3, right: "y")])
    }

    func testFinishesOnlyWhenAllFinish() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        a.combineLatest(b, +).subscribe(recorder)
        a.send(1); b.send(10)
        a.send(completion: .finished)
        b.send(20)
        XCTAssertEqual(recorder.completions, [])
        b.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(11), .value(21), .completion(.finished)])
    }

    func testThreeAndFourInputs() {
        let recorder3 = Recorder<Int, Never>()
        Just(1).combineLatest(Just(10), Just(100)) { $0 + $1 + $2 }.subscribe(recorder3)
        XCTAssertEqual(recorder3.events, [.subscription, .value(111), .completion(.finished)])

        let recorder4 = Recorder<Int, Never>()
        Just(1).combineLatest(Just(10), Just(100), [1000, 2000].publisher).map { $0 + $1 + $2 + $3 }.subscribe(recorder4)
        XCTAssertEqual(recorder4.values, [1111, 2111])
        XCTAssertEqual(recorder4.completions, [.finished])

        let tuple = Recorder<Int, Never>()
        Just(1).combineLatest(Just(2)).map { $0.0 * 10 + $0.1 }.subscribe(tuple)
        XCTAssertEqual(tuple.values, [12])
    }

    func testDemandKeepsOnlyTheLatestCombination() {
        let a = TrackedSubject<Int, Never>()
        let b = TrackedSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(3))
        a.combineLatest(b, +).subscribe(recorder)
        XCTAssertEqual([a.requests, b.requests], [[.max(3)], [.max(3)]], "demand is forwarded to every input")
        a.send(1); b.send(10); a.send(2); a.send(3)
        XCTAssertEqual(recorder.values, [11, 12, 13])
        b.send(20); b.send(30)
        XCTAssertEqual(recorder.values, [11, 12, 13], "never more than demanded")
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [11, 12, 13, 33], "only the latest waiting combination is kept")
        XCTAssertEqual(a.requests, [.max(3), .max(1)])
    }

    func testFailureCancelsTheOthers() {
        let a = TrackedSubject<Int, TestError>()
        let b = TrackedSubject<Int, TestError>()
        let c = TrackedSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        a.combineLatest(b, c) { $0 + $1 + $2 }.subscribe(recorder)
        b.send(completion: .failure(.boom))
        a.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
        XCTAssertEqual([a.cancels, b.cancels, c.cancels], [1, 0, 1])
    }

    func testCancelCancelsEveryInputAndReleases() {
        let a = TrackedSubject<Int, Never>()
        let b = TrackedSubject<Int, Never>()
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            a.combineLatest(b, +).subscribe(recorder)
            a.send(1); b.send(1)
            recorder.cancel()
            a.send(2)
            XCTAssertEqual(recorder.values, [2])
        }
        XCTAssertEqual([a.cancels, b.cancels], [1, 1])
        XCTAssertNil(weakRecorder)
    }
}

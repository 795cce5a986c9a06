import StreamCore
import XCTest

final class ZipTests: XCTestCase {
    func testPairsInOrder() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let recorder = Recorder<String, Never>()
        a.zip(b) { "\($0)\($1)" }.subscribe(recorder)
        a.send(1); a.send(2); a.send(3)
        b.send("a")
        XCTAssertEqual(recorder.values, ["1a"])
        b.send("b"); b.send("c"); b.send("d")
        XCTAssertEqual(recorder.values, ["1a", "2b", "3c"])
        a.send(4)
        XCTAssertEqual(recorder.values, ["1a", "2b", "3c", "4d"])
    }

    func testThreeAndFourInputs() {
        let recorder3 = Recorder<Int, Never>()
        [1, 2].publisher.zip([10, 20, 30].publisher, [100, 200].publisher) { $0 + $1 + $2 }.subscribe(recorder3)
        XCTAssertEqual(recorder3.events, [.subscription, .value(111), .value(222), .completion(.finished)])

        let recorder4 = Recorder<Int, Never>()
        Just(1).zip(Just(2), Just(3), Just(4)).map { $0.0 + $0.1 + $0.2 + $0.3 }.subscribe(recorder4)
        XCTAssertEqual(recorder4.values, [10])
    }

    func testFinishesAtOnceWhenAFinishedInputHasNothingBuffered() {
        let a = TrackedSubject<Int, Never>()
        let b = TrackedSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        a.zip(b, +).subscribe(recorder)
        a.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(b.cancels, 1)
    }

    func testFinishesOnceTheSurplusOfAFinishedInputIsPaired() {
        let a = TrackedSubject<Int, Never>()
        let b = TrackedSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        a.zip(b, +).subscribe(recorder)
        a.send(100); a.send(200)
        a.send(completion: .finished)
        b.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .value(101)])
        b.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(101), .value(202), .completion(.finished)])
        XCTAssertEqual(b.cancels, 1)
    }

    func testHonoursDemand() {
        let a = TrackedSubject<Int, Never>()
        let b = TrackedSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        a.zip(b, +).subscribe(recorder)
        XCTAssertEqual([a.requests, b.requests], [[.max(1)], [.max(1)]])
        a.send(1); b.send(10)
        a.send(2); b.send(20) // both dropped by the subjects: nothing requested
        XCTAssertEqual(recorder.values, [11])
        recorder.request(.max(2))
        XCTAssertEqual(a.requests, [.max(1), .max(2)])
        a.send(3); a.send(4); b.send(30); b.send(40)
        XCTAssertEqual(recorder.values, [11, 33, 44])

        let sequences = Recorder<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.zip((1...10).publisher, +).subscribe(sequences)
        XCTAssertEqual(sequences.values, [2, 4])
        sequences.request(.max(1))
        XCTAssertEqual(sequences.values, [2, 4, 6])
    }

    func testFailureCancelsTheOthers() {
        let a = TrackedSubject<Int, TestError>()
        let b = TrackedSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        a.zip(b, +).subscribe(recorder)
        a.send(1)
        a.send(completion: .failure(.boom))
        b.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
        XCTAssertEqual([a.cancels, b.cancels], [0, 1])
    }

    func testCancelCancelsEveryInputAndReleases() {
        let a = TrackedSubject<Int, Never>()
        let b = TrackedSubject<Int, Never>()
        let c = TrackedSubject<Int, Never>()
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            a.zip(b, c) { $0 + $1 + $2 }.subscribe(recorder)
            recorder.cancel()
        }
        XCTAssertEqual([a.cancels, b.cancels, c.cancels], [1, 1, 1])
        XCTAssertNil(weakRecorder)
    }
}

import Dispatch
import StreamCore
import XCTest

final class MergeTests: XCTestCase {
    func testInterleavesInArrivalOrderAndFinishesWhenAllFinish() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        a.merge(with: b).subscribe(recorder)
        a.send(1); b.send(10); a.send(2)
        a.send(completion: .finished)
        b.send(11)
        XCTAssertEqual(recorder.completions, [], "one finished input does not end the merge")
        b.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(10), .value(2), .value(11), .completion(.finished)])
    }

    func testAllArities() {
        let p = { (n: Int) in Just(n) }
        let recorder = Recorder<Int, Never>()
        p(1).merge(with: p(2), p(3), p(4), p(5), p(6), p(7), p(8)).subscribe(recorder)
        XCTAssertEqual(recorder.values, Array(1...8))
        XCTAssertEqual(recorder.completions, [.finished])
        for (arity, publisher) in [
            (2, p(1).merge(with: p(2)).eraseToAnyPublisher()),
            (3, p(1).merge(with: p(2), p(3)).eraseToAnyPublisher()),
            (4, p(1).merge(with: p(2), p(3), p(4)).eraseToAnyPublisher()),
            (5, p(1).merge(with: p(2), p(3), p(4), p(5)).eraseToAnyPublisher()),
            (6, p(1).merge(with: p(2), p(3), p(4), p(5), p(6)).eraseToAnyPublisher()),
            (7, p(1).merge(with: p(2), p(3), p(4), p(5), p(6), p(7)).eraseToAnyPublisher()),
        ] {
            let recorder = Recorder<Int, Never>()
            publisher.subscribe(recorder)
            XCTAssertEqual(recorder.values, Array(1...arity), "Merge\(arity)")
            XCTAssertEqual(recorder.completions, [.finished], "Merge\(arity)")
        }
    }

    func testMergeMany() {
        let recorder = Recorder<Int, Never>()
        Publishers.MergeMany([1, 2].publisher, [3].publisher).merge(with: [4].publisher).subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2, 3, 4])
        XCTAssertEqual(recorder.completions, [.finished])

        let fromSequence = Recorder<Int, Never>()
        Publishers.MergeMany((1...3).map { Just($0) }).subscribe(fromSequence)
        XCTAssertEqual(fromSequence.values, [1, 2, 3])

        let empty = Recorder<Int, Never>(initialDemand: .none)
        Publishers.MergeMany([Just<Int>]()).subscribe(empty)
        XCTAssertEqual(empty.events, [.subscription, .completion(.finished)], "no inputs: finishes at once")
    }

    func testHonoursDemandAskingEachInputForOneAtATime() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        [1, 2, 3].publisher.merge(with: [10, 20].publisher).subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1, 2, 3], "10 arrived too but waits for demand")
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1, 2, 3, 10])
        XCTAssertEqual(recorder.completions, [])
        recorder.request(.max(5))
        XCTAssertEqual(recorder.values, [1, 2, 3, 10, 20])
        XCTAssertEqual(recorder.completions, [.finished])
    }

    func testRequestsFromInputs() {
        let a = TrackedSubject<Int, Never>()
        let b = TrackedSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(3))
        a.merge(with: b).subscribe(recorder)
        XCTAssertEqual(a.requests, [.max(1)])
        XCTAssertEqual(b.requests, [.max(1)])
        a.send(1)
        XCTAssertEqual(a.requests, [.max(1)], "the replacement request is returned from receive(_:)")
        a.send(2)
        b.send(3)
        XCTAssertEqual(recorder.values, [1, 2, 3])
        a.send(4) // a had one request outstanding: its value waits for demand
        XCTAssertEqual(recorder.values, [1, 2, 3])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1, 2, 3, 4])

        let unlimited = Recorder<Int, Never>()
        let c = TrackedSubject<Int, Never>()
        c.merge(with: TrackedSubject<Int, Never>()).subscribe(unlimited)
        XCTAssertEqual(c.requests, [.unlimited])
    }

    func testValuesWaitingForDemandComeBeforeFinish() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        a.merge(with: b).subscribe(recorder)
        a.send(1); b.send(2)
        a.send(completion: .finished); b.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testFirstFailureCancelsTheOthers() {
        let a = TrackedSubject<Int, TestError>()
        let b = TrackedSubject<Int, TestError>()
        let c = TrackedSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        a.merge(with: b, c).subscribe(recorder)
        b.send(1)
        b.send(completion: .failure(.boom))
        a.send(2)
        c.send(completion: .failure(.other(1)))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.failure(.boom))])
        XCTAssertEqual([a.cancels, b.cancels, c.cancels], [1, 0, 1])
    }

    func testCancelCancelsEveryInputAndReleasesDownstream() {
        let a = TrackedSubject<Int, Never>()
        let b = TrackedSubject<Int, Never>()
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            a.merge(with: b).subscribe(recorder)
            a.send(1)
            recorder.cancel()
            a.send(2)
            XCTAssertEqual(recorder.values, [1])
        }
        XCTAssertEqual([a.cancels, b.cancels], [1, 1])
        XCTAssertNil(weakRecorder, "cancel breaks the recorder ↔ subscription cycle")
    }

    func testConcurrentProducersArriveCompleteAndInOrder() {
        let producers = 4
        let count = 5_000
        let subjects = (0..<producers).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = Recorder<Int, Never>()
        Publishers.MergeMany(subjects).subscribe(recorder)
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for value in 0..<count { subjects[producer].send(producer * 1_000_000 + value) }
            subjects[producer].send(completion: .finished)
        }
        let values = recorder.values
        XCTAssertEqual(values.count, producers * count)
        for producer in 0..<producers {
            let mine = values.filter { $0 / 1_000_000 == producer }.map { $0 % 1_000_000 }
            XCTAssertEqual(mine, Array(0..<count), "producer \(producer) in order")
        }
        XCTAssertEqual(recorder.completions, [.finished])
    }

    /// The book on MergeMany: it "publishes values until all publishers send a finished
    /// completion, or cancels entirely if any of the publishers" fails.
    func testMergeManyFailureCancelsEveryOtherInput() {
        let inputs = (0..<4).map { _ in TrackedSubject<Int, TestError>() }
        let recorder = Recorder<Int, TestError>()
        Publishers.MergeMany(inputs).subscribe(recorder)
        inputs[0].send(1)
        inputs[0].send(completion: .finished)
        inputs[3].send(2)
        inputs[2].send(completion: .failure(.boom))
        inputs[1].send(3)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(.boom))])
        XCTAssertEqual(inputs.map(\.cancels), [0, 1, 0, 1], "the finished and the failed input are not cancelled")
    }
}

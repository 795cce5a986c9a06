import Dispatch
import StreamCore
import XCTest

final class SwitchToLatestTests: XCTestCase {
    func testFlattensJusts() {
        let recorder = Recorder<Int, Never>()
        (1...5).publisher.map { Just($0 * 10) }.switchToLatest().subscribe(recorder)
        XCTAssertEqual(recorder.values, [10, 20, 30, 40, 50])
        XCTAssertEqual(recorder.completions, [.finished])
    }

    func testSupersededInnerIsNeverDelivered() {
        let outer = PassthroughSubject<TrackedSubject<String, Never>, Never>()
        let first = TrackedSubject<String, Never>()
        let second = TrackedSubject<String, Never>()
        let recorder = Recorder<String, Never>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(first)
        first.send("a")
        outer.send(second)
        XCTAssertEqual(first.cancels, 1, "a new inner cancels the previous one at once")
        first.send("stale")
        second.send("b")
        first.send("stale again")
        XCTAssertEqual(recorder.values, ["a", "b"])
    }

    func testSupersededInnerCannotReachDownstreamEvenIfItIgnoresCancel() {
        // A misbehaving inner that keeps sending after cancel: the generation check drops it.
        let outer = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
        var stale: AnySubscriber<Int, Never>?
        let leaky = AnyPublisher<Int, Never>(ClosurePublisher { subscriber in
            stale = subscriber
            subscriber.receive(subscription: Subscriptions.empty)
        })
        let recorder = Recorder<Int, Never>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(leaky)
        outer.send(Just(2).eraseToAnyPublisher())
        _ = stale?.receive(1)
        stale?.receive(completion: .finished)
        XCTAssertEqual(recorder.values, [2])
        XCTAssertEqual(recorder.completions, [])
    }

    func testDemandCarriesOverToNewInner() {
        let outer = PassthroughSubject<TrackedSubject<Int, Never>, Never>()
        let first = TrackedSubject<Int, Never>()
        let second = TrackedSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(3))
        outer.switchToLatest().subscribe(recorder)
        outer.send(first)
        XCTAssertEqual(first.requests, [.max(3)])
        first.send(1)
        outer.send(second)
        XCTAssertEqual(second.requests, [.max(2)], "the remaining demand moves to the new inner")
        second.send(2); second.send(3); second.send(4)
        XCTAssertEqual(recorder.values, [1, 2, 3], "never more than demanded")
        recorder.request(.max(1))
        XCTAssertEqual(second.requests, [.max(2), .max(1)])
    }

    func testOuterFinishingWaitsForCurrentInner() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(inner)
        outer.send(completion: .finished)
        inner.send(1)
        XCTAssertEqual(recorder.completions, [])
        inner.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testInnerFinishingDoesNotEndTheStream() {
        let outer = PassthroughSubject<Just<Int>, Never>()
        let recorder = Recorder<Int, Never>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(Just(1))
        XCTAssertEqual(recorder.completions, [])
        outer.send(Just(2))
        outer.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testInnerFailureFailsTheWholeAndCancelsOuter() {
        let outer = TrackedSubject<PassthroughSubject<Int, TestError>, TestError>()
        let inner = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        outer.switchToLatest().subscribe(recorder)
        XCTAssertEqual(outer.requests, [.unlimited])
        outer.send(inner)
        inner.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
        XCTAssertEqual(outer.cancels, 1)
    }

    func testOuterFailureCancelsInner() {
        let outer = PassthroughSubject<TrackedSubject<Int, TestError>, TestError>()
        let inner = TrackedSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(inner)
        outer.send(completion: .failure(.boom))
        inner.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
        XCTAssertEqual(inner.cancels, 1)
    }

    func testCancelCancelsOuterAndInnerAndReleases() {
        let outer = TrackedSubject<TrackedSubject<Int, Never>, Never>()
        let inner = TrackedSubject<Int, Never>()
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            outer.switchToLatest().subscribe(recorder)
            outer.send(inner)
            inner.send(1)
            recorder.cancel()
            inner.send(2)
            XCTAssertEqual(recorder.values, [1])
        }
        XCTAssertEqual([outer.cancels, inner.cancels], [1, 1])
        XCTAssertNil(weakRecorder)
    }

    func testValueSentFromDownstreamIntoOuterIsDeliveredAfterTheCurrentOne() {
        // Re-entrancy: the downstream switches to a new inner while receiving a value.
        let outer = PassthroughSubject<Just<Int>, Never>()
        var received: [Int] = []
        let cancellable = outer.switchToLatest().sink { value in
            received.append(value)
            if value == 1 { outer.send(Just(2)) }
        }
        outer.send(Just(1))
        XCTAssertEqual(received, [1, 2])
        cancellable.cancel()
    }

    func testConcurrentSwitchingNeverDeliversFromAnOlderInner() {
        let inners = (0..<200).map { _ in PassthroughSubject<Int, Never>() }
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let latest = LatestIndex()
        let recorder = Recorder<Int, Never>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(inners[0])
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            if worker == 0 {
                for index in 1..<inners.count {
                    outer.send(inners[index])
                    latest.set(index)
                }
            } else {
                for step in 0..<5_000 {
                    let index = latest.get()
                    inners[index].send(index * 100_000 + step)
                }
            }
        }
        let generations = recorder.values.map { $0 / 100_000 }
        XCTAssertEqual(generations, generations.sorted(), "a superseded inner never delivers after a newer one")
        XCTAssertFalse(generations.isEmpty)
    }

    func testFailureTypeOverloads() {
        let neverOuter = PassthroughSubject<Fail<Int, TestError>, Never>()
        let recorder = Recorder<Int, TestError>()
        neverOuter.switchToLatest().subscribe(recorder) // Failure == Never, inner can fail
        neverOuter.send(Fail(error: .boom))
        XCTAssertEqual(recorder.completions, [.failure(.boom)])

        let failingOuter = PassthroughSubject<Just<Int>, TestError>()
        let second = Recorder<Int, TestError>()
        failingOuter.switchToLatest().subscribe(second) // inner never fails, outer can
        failingOuter.send(Just(7))
        failingOuter.send(completion: .failure(.other(2)))
        XCTAssertEqual(second.events, [.subscription, .value(7), .completion(.failure(.other(2)))])
    }
}

/// The index of the newest inner, shared by the stress test's threads (behind its lock).
private final class LatestIndex: @unchecked Sendable {
    private let lock = TestLock()
    private var value = 0
    func set(_ index: Int) { lock.withLock { value = index } }
    func get() -> Int { lock.withLock { value } }
}

/// A publisher built from a closure, for inners that misbehave on purpose.
private struct ClosurePublisher<Output>: Publisher {
    typealias Failure = Never
    let body: (AnySubscriber<Output, Never>) -> Void
    init(_ body: @escaping (AnySubscriber<Output, Never>) -> Void) { self.body = body }
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        body(AnySubscriber(subscriber))
    }
}

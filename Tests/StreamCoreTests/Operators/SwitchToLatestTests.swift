import Foundation
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

    func testDemandAddedForASupersededInnersValueGoesToTheNewInner() {
        // The downstream switches to a new inner while it receives a value of the old one, and
        // asks for more: that demand belongs to the new inner; the old one is cancelled.
        let outer = PassthroughSubject<ScriptedPublisher<Int, Never>, Never>()
        let first = ScriptedPublisher<Int, Never>()
        let second = ScriptedPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: { value in
            guard value == 1 else { return .none }
            outer.send(second)
            return .max(1)
        })
        outer.switchToLatest().subscribe(recorder)
        outer.send(first)
        XCTAssertEqual(first.send(1), .none, "the demand does not go back to the superseded inner")
        XCTAssertEqual(first.events, [.requested(.max(1)), .cancelled])
        XCTAssertEqual(second.requests, [.max(1)], "the new inner (subscribed with no demand) gets it")
        second.send(2)
        XCTAssertEqual(recorder.values, [1, 2])
    }

    func testDemandAddedBeforeTheNewInnersSubscriptionArrivesIsRequestedWithIt() {
        // As above, but the new inner hands out its subscription only later: the demand the
        // downstream returned, and what it requested meanwhile, wait for it.
        let outer = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
        let first = ScriptedPublisher<Int, Never>()
        let second = ScriptedPublisher<Int, Never>()
        var held: AnySubscriber<Int, Never>?
        let late = ClosurePublisher<Int> { held = $0 }
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: { value in
            guard value == 1 else { return .none }
            outer.send(late.eraseToAnyPublisher())
            return .max(1)
        })
        outer.switchToLatest().subscribe(recorder)
        outer.send(first.eraseToAnyPublisher())
        XCTAssertEqual(first.send(1), .none)
        recorder.request(.max(2))
        XCTAssertEqual(first.requests, [.max(1)], "nothing more for the superseded inner")
        guard let held else { return XCTFail("the new inner was not subscribed") }
        second.receive(subscriber: held)  // the new inner's subscription arrives now
        XCTAssertEqual(second.requests, [.max(3)], "1 returned for the old inner's value + 2 requested")
        for value in 2...5 { second.send(value) }
        XCTAssertEqual(recorder.values, [1, 2, 3, 4], "never more than demanded")
    }

    /// Two threads keep sending into the inner they last saw published in `latest` while this
    /// thread switches through 200 inners. After each switch this thread waits until a value of
    /// the new inner has come out (it must: the inner is current and the downstream wants
    /// everything), so every inner delivers and the switches land among sends in flight.
    ///
    /// Without that wait the test could see nothing at all, legitimately: a value sent into an
    /// inner that is no longer current is dropped, and between `outer.send(inner)` and
    /// `latest.set` the senders still read the previous index. A switching thread descheduled
    /// there (or starved on `latest`'s lock by the two senders) while the senders make all their
    /// sends leaves every value dropped — which a loaded 2-core machine under ASan did.
    func testConcurrentSwitchingNeverDeliversFromAnOlderInner() {
        let inners = (0..<200).map { _ in PassthroughSubject<Int, Never>() }
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let latest = LatestIndex()
        let log = GenerationLog()
        let cancellable = outer.switchToLatest().sink { log.record(generation: $0 / 100_000) }
        outer.send(inners[0])
        let sendersDone = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            Thread {
                var step = 0
                while let index = latest.get() {
                    inners[index].send(index * 100_000 + step % 100_000)
                    step += 1
                }
                sendersDone.signal()
            }.start()
        }
        let deadline = Date().addingTimeInterval(60)
        for index in inners.indices {
            if index > 0 {
                outer.send(inners[index])
                latest.set(index)
            }
            while log.newest != index && Date() < deadline { usleep(100) }
            guard log.newest == index else {
                XCTFail("no value of inner \(index) came out within 60 s")
                break
            }
        }
        latest.stop()
        for _ in 0..<2 { XCTAssertEqual(sendersDone.wait(timeout: .now() + 60), .success) }
        cancellable.cancel()
        XCTAssertEqual(log.outOfOrder, [], "a superseded inner never delivers after a newer one")
        XCTAssertEqual(log.generations, Array(inners.indices), "every inner delivered, in order")
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

/// The index of the newest inner, shared by the stress test's threads (behind its lock); nil
/// once the senders are to stop.
private final class LatestIndex: @unchecked Sendable {
    private let lock = TestLock()
    private var value: Int? = 0
    func set(_ index: Int) { lock.withLock { value = index } }
    func stop() { lock.withLock { value = nil } }
    func get() -> Int? { lock.withLock { value } }
}

/// What the stress test's downstream saw, by inner (behind its lock): the inners in the order
/// their first values came, and any value of an inner older than one already seen.
private final class GenerationLog: @unchecked Sendable {
    private let lock = TestLock()
    private var seen: [Int] = []
    private var stale: [String] = []

    func record(generation: Int) {
        lock.withLock {
            guard let newest = seen.last, generation <= newest else { return seen.append(generation) }
            if generation < newest, stale.count < 10 { stale.append("\(generation) after \(newest)") }
        }
    }

    /// The newest inner that delivered, or nil before any value.
    var newest: Int? { lock.withLock { seen.last } }
    var generations: [Int] { lock.withLock { seen } }
    var outOfOrder: [String] { lock.withLock { stale } }
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

import Foundation
import StreamCore
import XCTest

/// Values sent from many threads at once through the library's operators.
final class ConcurrencyStressTests: XCTestCase {
    private struct Tick: Equatable, Sendable {
        let producer: Int
        let sequence: Int
    }

    private let producers = 8
    private let valuesPerProducer = 2_000

    /// Each recorder must have every value that passes the filter, with each producer's values
    /// in the order that producer sent them.
    private func assertCompleteAndOrdered(_ values: [Tick], keep: (Int) -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let expected = (0..<valuesPerProducer).filter(keep)
        for producer in 0..<producers {
            let received = values.filter { $0.producer == producer }.map(\.sequence)
            XCTAssertEqual(received, expected, "producer \(producer): lost or reordered values", file: file, line: line)
        }
        XCTAssertEqual(values.count, expected.count * producers, file: file, line: line)
    }

    private func sendConcurrently(into subject: PassthroughSubject<Tick, Never>, count: Int? = nil) {
        let count = count ?? valuesPerProducer
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for sequence in 0..<count {
                subject.send(Tick(producer: producer, sequence: sequence))
            }
        }
    }

    func testConcurrentSendsThroughMapFilterShareReachEverySubscriberInOrder() {
        let subject = PassthroughSubject<Tick, Never>()
        let keep: @Sendable (Int) -> Bool = { $0 % 5 != 0 }
        let shared = subject
            .map { Tick(producer: $0.producer, sequence: $0.sequence * 2) }
            .map { Tick(producer: $0.producer, sequence: $0.sequence / 2) }
            .filter { keep($0.sequence) }
            .share()
        let recorders = (0..<3).map { _ in Recorder<Tick, Never>() }
        recorders.forEach(shared.subscribe)

        sendConcurrently(into: subject)

        for recorder in recorders {
            assertCompleteAndOrdered(recorder.values, keep: keep)
        }
        recorders.forEach { $0.cancel() }
    }

    func testConcurrentSendsToSeveralDirectSubscribersAndSinks() {
        let subject = PassthroughSubject<Tick, Never>()
        let direct = Recorder<Tick, Never>()
        subject.filter { $0.sequence % 2 == 0 }.subscribe(direct)
        let sinkValues = Recorder<Tick, Never>()
        let cancellable = subject.map { $0 }.sink { _ = sinkValues.receive($0) }

        sendConcurrently(into: subject)

        assertCompleteAndOrdered(direct.values, keep: { $0 % 2 == 0 })
        assertCompleteAndOrdered(sinkValues.values, keep: { _ in true })
        cancellable.cancel()
        direct.cancel()
    }

    /// A subscriber that notes every value arriving after `cancel()` has returned.
    private final class CancelWatcher: Subscriber, @unchecked Sendable {
        // Sendable: the mutable fields are only touched with `lock` held.
        typealias Input = Tick
        typealias Failure = Never
        private let lock = TestLock()
        private var subscription: Subscription?
        private var received = 0
        private var cancelled = false
        private var lateArrivals = 0
        private let cancelAfter: Int?

        /// - Parameter cancelAfter: cancel from inside `receive(_:)` after this many values.
        init(cancelAfter: Int? = nil) { self.cancelAfter = cancelAfter }

        var count: Int { lock.withLock { received } }
        var late: Int { lock.withLock { lateArrivals } }

        func receive(subscription: Subscription) {
            lock.withLock { self.subscription = subscription }
            subscription.request(.unlimited)
        }

        func receive(_ input: Tick) -> Subscribers.Demand {
            let shouldCancel: Bool = lock.withLock {
                if cancelled { lateArrivals += 1 }
                received += 1
                return !cancelled && received == cancelAfter
            }
            if shouldCancel { cancel() }
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {}

        func cancel() {
            lock.withLock { subscription }?.cancel()
            lock.withLock { cancelled = true }
        }
    }

    private func raceCancel(rounds: Int, pipeline: (PassthroughSubject<Tick, Never>, CancelWatcher) -> Void) {
        for round in 0..<rounds {
            let subject = PassthroughSubject<Tick, Never>()
            let watcher = CancelWatcher()
            pipeline(subject, watcher)
            let target = round % 40
            DispatchQueue.concurrentPerform(iterations: producers + 1) { index in
                if index == 0 {
                    var spins = 0
                    while watcher.count < target, spins < 100_000 {
                        sched_yield()
                        spins += 1
                    }
                    watcher.cancel()
                } else {
                    for sequence in 0..<200 {
                        subject.send(Tick(producer: index, sequence: sequence))
                    }
                }
            }
            // Deliveries to one subscriber are serialised, so after cancel() returns only the
            // single delivery already under way can still land.
            XCTAssertLessThanOrEqual(watcher.late, 1, "round \(round)")
        }
    }

    func testCancelRacingWithSendThroughMapFilter() {
        raceCancel(rounds: 100) { subject, watcher in
            subject.map { $0 }.filter { _ in true }.subscribe(watcher)
        }
    }

    func testCancelRacingWithSendThroughShare() {
        raceCancel(rounds: 100) { subject, watcher in
            let shared = subject.map { $0 }.share()
            shared.subscribe(watcher)
            shared.subscribe(Recorder<Tick, Never>())
        }
    }

    /// A subscriber that cancels from inside a delivery, while other threads keep sending,
    /// receives nothing after that cancel.
    func testNothingArrivesAfterCancellingFromInsideADelivery() {
        for round in 0..<50 {
            let subject = PassthroughSubject<Tick, Never>()
            let viaShare = CancelWatcher(cancelAfter: 10 + round)
            let viaMap = CancelWatcher(cancelAfter: 5 + round)
            subject.map { $0 }.filter { _ in true }.share().subscribe(viaShare)
            subject.map { $0 }.subscribe(viaMap)
            sendConcurrently(into: subject, count: 200)
            XCTAssertEqual(viaShare.late, 0)
            XCTAssertEqual(viaShare.count, 10 + round)
            XCTAssertEqual(viaMap.late, 0)
            XCTAssertEqual(viaMap.count, 5 + round)
        }
    }
}

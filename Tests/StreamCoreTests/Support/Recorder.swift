import Foundation
import StreamCore

/// A subscriber that records everything it receives, with the demand under the test's control.
///
/// `initialDemand` is requested on subscription; `demandPerValue` is returned from each
/// `receive(_:)`. Thread-safe, so stress tests can deliver from many threads.
final class Recorder<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    // Safe to share: every stored property below `lock` is only touched with it held.
    enum Event {
        case subscription
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    private let lock = TestLock()
    private var recorded: [Event] = []
    private var timestamps: [Int] = []
    private var storedSubscription: Subscription?
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: (Input) -> Subscribers.Demand
    private let clock: () -> Int

    /// - Parameters:
    ///   - clock: stamps each event (e.g. virtual milliseconds since the test began).
    init(
        initialDemand: Subscribers.Demand = .unlimited,
        demandPerValue: @escaping (Input) -> Subscribers.Demand = { _ in .none },
        clock: @escaping () -> Int = { 0 }
    ) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
        self.clock = clock
    }

    convenience init(initialDemand: Subscribers.Demand, demandPerValue: Subscribers.Demand) {
        self.init(initialDemand: initialDemand, demandPerValue: { _ in demandPerValue })
    }

    func receive(subscription: Subscription) {
        lock.withLock {
            storedSubscription = subscription
            append(.subscription)
        }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { append(.value(input)) }
        return demandPerValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { append(.completion(completion)) }
    }

    private func append(_ event: Event) {
        recorded.append(event)
        timestamps.append(clock())
    }

    /// Requests more values through the recorded subscription.
    func request(_ demand: Subscribers.Demand) {
        lock.withLock { storedSubscription }?.request(demand)
    }

    func cancel() {
        lock.withLock { storedSubscription }?.cancel()
    }

    var subscription: Subscription? { lock.withLock { storedSubscription } }
    var events: [Event] { lock.withLock { recorded } }
    /// Each event with the clock's reading when it arrived.
    var timeline: [(time: Int, event: Event)] { lock.withLock { Array(zip(timestamps, recorded)) } }

    var values: [Input] {
        events.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    var completions: [Subscribers.Completion<Failure>] {
        events.compactMap { if case .completion(let completion) = $0 { completion } else { nil } }
    }

    var subscriptionCount: Int {
        events.filter { if case .subscription = $0 { true } else { false } }.count
    }
}

extension Recorder.Event: Equatable where Input: Equatable, Failure: Equatable {}

/// A plain mutex for test support.
final class TestLock: @unchecked Sendable {
    private let lock = NSLock()
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

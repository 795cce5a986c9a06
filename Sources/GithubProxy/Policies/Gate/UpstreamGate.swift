import Dispatch
import Foundation
import Locking
import StreamCore
import Synchronization

/// At most `limit` upstream requests in flight; the rest wait in arrival order. A waiting
/// request that is cancelled (a superseded keystroke) leaves the queue at once and never
/// reaches the upstream.
public final class UpstreamGate: Sendable {

    /// GitHub documents 100 concurrent requests as a secondary rate limit.
    public static let maxLimit = 100

    public let limit: Int
    private struct State: Sendable {
        var inFlight = 0
        var waiters = FIFOWaiters()
    }
    private let state = Locked(State())
    private let onWait: @Sendable (_ wait: Duration, _ queueLength: Int) -> Void

    /// - Parameters:
    ///   - limit: requests in flight at most, clamped to 1…`maxLimit`.
    ///   - onWait: told how long each admitted request waited, and the queue length after it
    ///     (for metrics; called outside the lock).
    public init(limit: Int = 8, onWait: @escaping @Sendable (Duration, Int) -> Void = { _, _ in }) {
        self.limit = min(Self.maxLimit, max(1, limit))
        self.onWait = onWait
    }

    /// Requests in flight now.
    public var running: Int { state.withLock { $0.inFlight } }

    /// Requests waiting now.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// `make()`'s publisher, subscribed once a slot is free; the slot is given back when it
    /// completes or is cancelled.
    public func admit<Output, Failure>(_ make: @escaping () -> AnyPublisher<Output, Failure>) -> AnyPublisher<Output, Failure> {
        Slot(gate: self)
            .setFailureType(to: Failure.self)
            .flatMap(maxPublishers: .max(1)) { ticket in
                make().handleEvents(
                    receiveCompletion: { _ in ticket.release() },
                    receiveCancel: { ticket.release() }
                )
            }
            .eraseToAnyPublisher()
    }

    // MARK: Slots

    /// Takes a slot for `waiter` now, or queues it; returns whether it was granted at once.
    func acquire(_ waiter: Waiter) -> Bool {
        let granted = state.withLock { state -> Bool in
            if state.inFlight < limit, state.waiters.isEmpty {
                state.inFlight += 1
                return true
            }
            state.waiters.append(waiter)
            return false
        }
        if granted { onWait(.zero, waiting) }
        return granted
    }

    /// A waiter gave up before its turn.
    func leave(_ waiter: Waiter) {
        state.withLock { $0.waiters.remove(waiter.id) }
    }

    /// A request ended: its slot goes to the next waiter, if any.
    func release() {
        let next = state.withLock { state -> (Waiter, Int)? in
            if let waiter = state.waiters.popFirst() { return (waiter, state.waiters.count) }
            state.inFlight -= 1
            return nil
        }
        guard let (waiter, queued) = next else { return }
        onWait(ContinuousClock.now - waiter.since, queued)
        waiter.grant()
    }

    /// A request waiting for a slot.
    final class Waiter: Sendable {
        let id: UInt64
        let since = ContinuousClock.now
        /// Kept alive by the queue while it waits.
        let owner: any SlotOwner

        init(id: UInt64, owner: any SlotOwner) {
            self.id = id
            self.owner = owner
        }

        func grant() { owner.granted() }
    }

    /// Publishes one ticket when a slot is granted, then finishes.
    private struct Slot: Publisher {
        typealias Output = Ticket
        typealias Failure = Never
        let gate: UpstreamGate

        func receive<S: Subscriber>(subscriber: S) where S.Input == Ticket, S.Failure == Never {
            subscriber.receive(subscription: SlotSubscription(gate: gate, downstream: subscriber))
        }
    }
}

/// A granted slot, given back once.
final class Ticket: Sendable {
    private let released = Atomic<Bool>(false)
    private weak let gate: UpstreamGate?

    init(gate: UpstreamGate) { self.gate = gate }

    func release() {
        if !released.exchange(true, ordering: .acquiringAndReleasing) { gate?.release() }
    }
}

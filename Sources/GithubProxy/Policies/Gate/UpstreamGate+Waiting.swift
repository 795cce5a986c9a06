import Foundation
import Locking
@_spi(ServerSupport) import StreamCore
import Synchronization

/// Waiters in arrival order. Appending and taking the first are O(1) amortised; removing a
/// waiter that gave up scans the queue once and marks it, to be skipped when it reaches the front.
struct FIFOWaiters: Sendable {
    private var queue: [UpstreamGate.Waiter] = []
    private var head = 0
    private var removed: Set<UInt64> = []

    var count: Int { queue.count - head - removed.count }
    var isEmpty: Bool { count == 0 }

    mutating func append(_ waiter: UpstreamGate.Waiter) { queue.append(waiter) }

    mutating func remove(_ id: UInt64) {
        guard queue[head...].contains(where: { $0.id == id }) else { return }
        removed.insert(id)
        dropRemovedFront()
    }

    mutating func popFirst() -> UpstreamGate.Waiter? {
        dropRemovedFront()
        guard head < queue.count else { return nil }
        let waiter = queue[head]
        head += 1
        compact()
        dropRemovedFront()
        return waiter
    }

    private mutating func dropRemovedFront() {
        while head < queue.count, removed.remove(queue[head].id) != nil { head += 1 }
        compact()
    }

    private mutating func compact() {
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
    }
}

/// What a waiter tells when its slot is granted.
protocol SlotOwner: AnyObject, Sendable {
    func granted()
}

/// The subscription of `UpstreamGate.Slot`: asks for a slot on the first demand, sends the
/// ticket when it is granted, and leaves the queue (or gives the slot back) when cancelled.
///
/// Its phase and downstream are in one lock; the downstream is called only outside it.
final class SlotSubscription<Downstream: Subscriber>: Subscription, SlotOwner
where Downstream.Input == Ticket, Downstream.Failure == Never {
    private enum Phase { case idle, waiting(UpstreamGate.Waiter), granted, cancelled }

    private struct State {
        var phase = Phase.idle
        /// Let go of once granted or cancelled.
        var downstream: SerialSubscriber<Downstream>?
    }

    private let state: Locked<State>
    private let gate: UpstreamGate

    init(gate: UpstreamGate, downstream: Downstream) {
        self.gate = gate
        state = Locked(State(downstream: SerialSubscriber(downstream)))
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        // The queue keeps this subscription alive while it waits; `cancel` takes it out.
        let waiter = UpstreamGate.Waiter(id: waiterIDs.wrappingAdd(1, ordering: .relaxed).newValue, owner: self)
        let ask = state.withLock { state -> Bool in
            guard case .idle = state.phase else { return false }
            state.phase = .waiting(waiter)
            return true
        }
        if ask, gate.acquire(waiter) { granted() }
    }

    func granted() {
        let target = state.withLock { state -> SerialSubscriber<Downstream>? in
            guard case .waiting = state.phase else { return nil }
            state.phase = .granted
            defer { state.downstream = nil }
            return state.downstream
        }
        let ticket = Ticket(gate: gate)
        guard let target else {
            // Cancelled just as the slot came: give it back.
            ticket.release()
            return
        }
        _ = target.receive(ticket)
        target.receive(completion: .finished)
    }

    func cancel() {
        let (waiter, released) = state.withLock { state -> (UpstreamGate.Waiter?, SerialSubscriber<Downstream>?) in
            defer {
                state.phase = .cancelled
                state.downstream = nil
            }
            if case .waiting(let waiter) = state.phase { return (waiter, state.downstream) }
            return (nil, state.downstream)
        }
        if let waiter { gate.leave(waiter) }
        withExtendedLifetime(released) {}  // the downstream is let go here, not under the lock
    }
}

/// Unique waiter ids.
private let waiterIDs = Atomic<UInt64>(0)

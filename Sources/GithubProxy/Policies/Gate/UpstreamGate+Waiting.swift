import Foundation
import Locking
import StreamCore
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

/// The subscription of `UpstreamGate.Slot`: asks for a slot on the first demand, sends the
/// ticket when it is granted, and leaves the queue (or gives the slot back) when cancelled.
/// What a waiter tells when its slot is granted.
protocol SlotOwner: AnyObject, Sendable {
    func granted()
}

final class SlotSubscription<Downstream: Subscriber>: Subscription, SlotOwner, @unchecked Sendable
where Downstream.Input == Ticket, Downstream.Failure == Never {
    // Sendable: `state` and `downstream` are guarded by `lock`.
    private enum State { case idle, waiting(UpstreamGate.Waiter), granted, cancelled }

    private let lock = Lock()
    private var state = State.idle
    private var downstream: Downstream?
    private let gate: UpstreamGate

    init(gate: UpstreamGate, downstream: Downstream) {
        self.gate = gate
        self.downstream = downstream
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        // The queue keeps this subscription alive while it waits; `cancel` takes it out.
        let waiter = UpstreamGate.Waiter(id: waiterIDs.wrappingAdd(1, ordering: .relaxed).newValue, owner: self)
        let ask = lock.withLock { () -> Bool in
            guard case .idle = state else { return false }
            state = .waiting(waiter)
            return true
        }
        if ask, gate.acquire(waiter) { granted() }
    }

    func granted() {
        let target = lock.withLock { () -> Downstream? in
            guard case .waiting = state else { return nil }
            state = .granted
            defer { downstream = nil }
            return downstream
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
        let (waiter, released) = lock.withLock { () -> (UpstreamGate.Waiter?, Downstream?) in
            defer {
                state = .cancelled
                downstream = nil
            }
            if case .waiting(let waiter) = state { return (waiter, downstream) }
            return (nil, downstream)
        }
        if let waiter { gate.leave(waiter) }
        withExtendedLifetime(released) {}  // the downstream is let go here, not under the lock
    }
}

/// Unique waiter ids.
private let waiterIDs = Atomic<UInt64>(0)

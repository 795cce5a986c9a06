import Locking

/// Hands elements to a receiver in the order they were queued, never under the queuing side's
/// lock. Queue under your own lock (so the queue's order is your order), unlock, then call
/// `deliverQueued()`: the thread that finds no delivery under way delivers everything queued
/// until the queue is empty; a thread that finds one under way (another thread, or the receiver
/// itself queuing more) returns at once, and its elements follow in order. `deliver(_:)` does
/// both for an element that needs no lock of yours, without queuing it when nothing is ahead.
///
/// Not part of the Combine API: the other modules of the project see it through
/// `@_spi(ServerSupport) import StreamCore`. Inlinable, so that it is specialised for its
/// element where it is used.
@_spi(ServerSupport)
public final class OrderedHandoff<Element>: @unchecked Sendable {
    // Sendable: `queued` and `delivering` are guarded by `lock`; `receive` runs on one thread
    // at a time (the one that set `delivering`).
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var queued: [Element] = []
    @usableFromInline @exclusivity(unchecked) var delivering = false
    @usableFromInline let receive: @Sendable (Element) -> Void

    /// - Parameter receive: gets each element, in order, one at a time, with no lock held.
    @inlinable
    public init(receive: @escaping @Sendable (Element) -> Void) {
        self.receive = receive
    }

    /// Queues `element`; may be called under the caller's lock (this one is taken only briefly,
    /// and nothing is called while it is held).
    @inlinable
    public func enqueue(_ element: Element) {
        lock.withLock { queued.append(element) }
    }

    /// Queues `element` and delivers what is queued: at once, without queuing it, when nothing
    /// is queued or being delivered. Call it with no lock held.
    @inlinable
    public func deliver(_ element: Element) {
        let now: Bool = lock.withLock {
            guard !delivering, queued.isEmpty else {
                queued.append(element)
                return false
            }
            delivering = true
            return true
        }
        guard now else { return deliverQueued() }
        receive(element)
        drain()
    }

    /// Delivers what is queued, unless a delivery is under way (which then delivers it too).
    /// Call it with no lock held.
    @inlinable
    public func deliverQueued() {
        let claimed: Bool = lock.withLock {
            guard !delivering, !queued.isEmpty else { return false }
            delivering = true
            return true
        }
        if claimed { drain() }
    }

    /// Delivers batches until the queue is empty, then ends the delivery; called by the thread
    /// that set `delivering`.
    @inlinable
    func drain() {
        var batch: [Element] = []
        while true {
            lock.withLock {
                // The emptied batch goes back as the queue, keeping its storage.
                swap(&batch, &queued)
                if batch.isEmpty { delivering = false }
            }
            if batch.isEmpty { return }
            batch.forEach(receive)
            batch.removeAll(keepingCapacity: true)
        }
    }
}

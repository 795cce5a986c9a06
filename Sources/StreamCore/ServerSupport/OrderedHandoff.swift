import Locking

/// Hands elements to a receiver in the order they were queued, never under the queuing side's
/// lock. Queue under your own lock (so the queue's order is your order), unlock, then call
/// `deliverQueued()`: the thread that finds no delivery under way delivers everything queued
/// until the queue is empty; a thread that finds one under way (another thread, or the receiver
/// itself queuing more) returns at once, and its elements follow in order.
///
/// Not part of the Combine API: the other modules of the project see it through
/// `@_spi(ServerSupport) import StreamCore`.
@_spi(ServerSupport)
public final class OrderedHandoff<Element>: @unchecked Sendable {
    // Sendable: `queued` and `delivering` are guarded by `lock`; `receive` runs on one thread
    // at a time (the one whose `deliverQueued()` set `delivering`).
    private let lock = Lock()
    private var queued: [Element] = []
    private var delivering = false
    private let receive: @Sendable (Element) -> Void

    /// - Parameter receive: gets each element, in order, one at a time, with no lock held.
    public init(receive: @escaping @Sendable (Element) -> Void) {
        self.receive = receive
    }

    /// Queues `element`; may be called under the caller's lock (this one is taken only briefly,
    /// and nothing is called while it is held).
    public func enqueue(_ element: Element) {
        lock.withLock { queued.append(element) }
    }

    /// Delivers what is queued, unless a delivery is under way (which then delivers it too).
    /// Call it with no lock held.
    public func deliverQueued() {
        let claimed: Bool = lock.withLock {
            guard !delivering, !queued.isEmpty else { return false }
            delivering = true
            return true
        }
        guard claimed else { return }
        while true {
            let batch: [Element] = lock.withLock {
                let batch = queued
                queued.removeAll()
                if batch.isEmpty { delivering = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            batch.forEach(receive)
        }
    }
}

import Foundation
import Locking
import StreamCore

/// The subscriptions of one pipeline instance, cancelled together when its session ends (after
/// which nothing more is kept).
///
/// They are cancelled last kept first, so the subscribers a pipeline sets up first (its
/// `activity` events) still see what cancelling the later ones causes: a lookup cancelled in
/// flight reports its `activity:false`, and the instance's activity stays balanced.
final class PipelineSubscriptions: @unchecked Sendable {
    // Sendable: `cancellables` and `cancelled` are guarded by `lock`; cancels run outside it.
    private let lock = Lock()
    private var cancellables: [AnyCancellable] = []
    private var cancelled = false

    /// Keeps `subscriptions` until `cancel()`; after it, cancels them at once.
    func keep(_ subscriptions: [AnyCancellable]) {
        let late = lock.withLock { () -> [AnyCancellable] in
            guard !cancelled else { return subscriptions }
            cancellables += subscriptions
            return []
        }
        late.reversed().forEach { $0.cancel() }
    }

    /// Cancels every subscription, last kept first: an upstream request in flight is cancelled.
    func cancel() {
        let cancellables = lock.withLock {
            defer {
                self.cancellables = []
                cancelled = true
            }
            return self.cancellables
        }
        cancellables.reversed().forEach { $0.cancel() }
    }
}

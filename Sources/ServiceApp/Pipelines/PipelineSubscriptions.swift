import Foundation
import Locking
import StreamCore

/// The subscriptions of one pipeline instance, cancelled together when its session ends (after
/// which nothing more is kept).
final class PipelineSubscriptions: @unchecked Sendable {
    // Sendable: `cancellables` and `cancelled` are guarded by `lock`; cancels run outside it.
    private let lock = Lock()
    private var cancellables = Set<AnyCancellable>()
    private var cancelled = false

    /// Keeps `subscriptions` until `cancel()`; after it, cancels them at once.
    func keep(_ subscriptions: Set<AnyCancellable>) {
        let late = lock.withLock { () -> Set<AnyCancellable> in
            guard !cancelled else { return subscriptions }
            cancellables.formUnion(subscriptions)
            return []
        }
        late.forEach { $0.cancel() }
    }

    /// Cancels every subscription: an upstream request in flight is cancelled.
    func cancel() {
        let cancellables = lock.withLock {
            defer {
                self.cancellables = []
                cancelled = true
            }
            return self.cancellables
        }
        cancellables.forEach { $0.cancel() }
    }
}

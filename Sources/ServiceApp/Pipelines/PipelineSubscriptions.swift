import Foundation
import Locking
import StreamCore

/// The subscriptions of one pipeline instance, cancelled together when its session ends (after
/// which nothing more is kept).
///
/// They are cancelled last kept first, so the subscribers a pipeline sets up first (its
/// `activity` events) still see what cancelling the later ones causes: a lookup cancelled in
/// flight reports its `activity:false`, and the instance's activity stays balanced.
final class PipelineSubscriptions: Sendable {
    private enum State: Sendable {
        /// Holding the subscriptions until `cancel()`.
        case keeping([AnyCancellable])
        /// Cancelled: anything kept from now on is cancelled at once.
        case cancelled
    }

    private let state = Locked(State.keeping([]))

    /// Keeps `subscriptions` until `cancel()`; after it, cancels them at once.
    func keep(_ subscriptions: [AnyCancellable]) {
        let late = state.withLock { state -> [AnyCancellable] in
            guard case .keeping(let kept) = state else { return subscriptions }
            state = .keeping(kept.isEmpty ? subscriptions : kept + subscriptions)
            return []
        }
        late.reversed().forEach { $0.cancel() }
    }

    /// Cancels every subscription, last kept first: an upstream request in flight is cancelled.
    func cancel() {
        let cancellables = state.withLock { state -> [AnyCancellable] in
            defer { state = .cancelled }
            guard case .keeping(let kept) = state else { return [] }
            return kept
        }
        cancellables.reversed().forEach { $0.cancel() }
    }
}

import Foundation
import Locking
@_spi(ServerSupport) import StreamCore

/// The seed's `networkActivityPublisher`, with its guarantees made explicit: every `true` is
/// followed by exactly one `false`, and activities never overlap — beginning a new one ends the
/// previous one first.
///
/// Events leave in the order they happened and never under the lock (an `OrderedHandoff`), so a
/// subscriber may call back into this object, from any thread. An owner whose other events must
/// keep their place among the activity events (a lookup's result after its `true`) hands them to
/// `deliverInOrder(_:)`: they join the same queue.
public final class NetworkActivity: Sendable {

    /// What the queue delivers: an activity event, or the owner's work in its place among them.
    private enum Delivery: Sendable {
        case activity(Bool)
        case work(@Sendable () -> Void)
    }

    /// Identifies one activity, for `end(_:)`.
    public struct Token: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct State: Sendable {
        /// The activity going on, if any.
        var current: UInt64?
        var nextID: UInt64 = 0
    }
    private let state = Locked(State())
    private let subject = PassthroughSubject<Bool, Never>()
    private let handoff: OrderedHandoff<Delivery>

    public init() {
        handoff = OrderedHandoff { [subject] delivery in
            switch delivery {
            case .activity(let active): subject.send(active)
            case .work(let work): work()
            }
        }
    }

    /// `true` when an activity begins, `false` when it ends.
    public var publisher: AnyPublisher<Bool, Never> { subject.eraseToAnyPublisher() }

    /// Begins an activity, ending the current one first if there is one.
    public func begin() -> Token {
        // Queued under the lock, so that two threads' begin and end keep their order in the
        // queue (enqueueing calls no one: delivery happens after, outside the lock).
        let token: Token = state.withLock { state in
            if state.current != nil { handoff.enqueue(.activity(false)) }
            state.nextID += 1
            state.current = state.nextID
            handoff.enqueue(.activity(true))
            return Token(id: state.nextID)
        }
        handoff.deliverQueued()
        return token
    }

    /// Ends the activity if it is still the current one; otherwise does nothing.
    public func end(_ token: Token) {
        let ended: Bool = state.withLock { state in
            guard state.current == token.id else { return false }
            state.current = nil
            handoff.enqueue(.activity(false))
            return true
        }
        if ended { handoff.deliverQueued() }
    }

    /// Runs `work` after every activity event reported so far has been delivered, on the thread
    /// delivering them (perhaps this one, before returning). Events reported while another thread
    /// is still delivering wait for it, so a result written straight away could overtake its
    /// activity's `true`; written through here, it cannot.
    public func deliverInOrder(_ work: @escaping @Sendable () -> Void) {
        handoff.deliver(.work(work))
    }
}

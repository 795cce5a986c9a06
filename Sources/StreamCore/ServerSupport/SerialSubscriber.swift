import Foundation
import Synchronization

/// A downstream subscriber that a subscription keeps and calls from whatever thread its events
/// arrive on.
///
/// Combine's contract lets a publisher call its subscriber from any thread, one call at a time.
/// `Subscriber` is not `Sendable` (as in Apple's Combine) because the type system cannot say
/// "serialised, not confined to a thread"; this box says it, in one place. It is `Sendable`, so
/// a subscription can keep its downstream inside a `Locked` state and be plainly `Sendable`
/// itself. Debug and test builds check the contract on every call (`assert`, compiled out of
/// release builds): a call while another thread's call is under way traps; a call from inside a
/// call on the same thread (a synchronous re-entry, which Combine allows) does not.
///
/// Like anything kept under a lock, take it out before calling it: copy out, unlock, call.
///
/// Not part of the Combine API: the other modules of the project see it through
/// `@_spi(ServerSupport) import StreamCore`.
@_spi(ServerSupport)
public final class SerialSubscriber<Wrapped: Subscriber>: Subscriber, @unchecked Sendable {
    // Sendable: `wrapped` is reached only through the three calls below, which Combine's
    // contract serialises (asserted on every call in debug and test builds through `caller`;
    // `SerialSubscriberTests`).
    public typealias Input = Wrapped.Input
    public typealias Failure = Wrapped.Failure

    private let wrapped: Wrapped
    /// The thread whose call is under way, or 0 (debug and test builds only).
    private let caller = Atomic<UInt>(0)

    /// Wraps `wrapped`, which from now on is called only through this box.
    public init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    public var combineIdentifier: CombineIdentifier { wrapped.combineIdentifier }

    public func receive(subscription: Subscription) {
        let outermost = enter()
        defer { leave(outermost) }
        wrapped.receive(subscription: subscription)
    }

    public func receive(_ input: Input) -> Subscribers.Demand {
        let outermost = enter()
        defer { leave(outermost) }
        return wrapped.receive(input)
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        let outermost = enter()
        defer { leave(outermost) }
        wrapped.receive(completion: completion)
    }

    /// Whether the calling thread may call the subscriber now: no other thread's call is under
    /// way. What the debug check asserts, exposed so tests can check it without trapping.
    public var isCallable: Bool {
        let current = caller.load(ordering: .acquiring)
        return current == 0 || current == Self.currentThread
    }

    /// Claims the subscriber for this thread's call (debug and test builds); returns whether
    /// this call is the outermost one, which gives it back.
    private func enter() -> Bool {
        var outermost = false
        assert(claim(&outermost), "SerialSubscriber called while another thread's call to it is under way")
        return outermost
    }

    private func claim(_ outermost: inout Bool) -> Bool {
        let me = Self.currentThread
        let (claimed, current) = caller.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing)
        outermost = claimed
        return claimed || current == me
    }

    private func leave(_ outermost: Bool) {
        if outermost { caller.store(0, ordering: .releasing) }
    }

    /// pthread_t is an integer on Linux, never 0 for a live thread.
    private static var currentThread: UInt { UInt(pthread_self()) }
}

import Locking

/// A publisher that emits an output to each subscriber just once, and then finishes.
@frozen
public struct Just<Output>: Publisher {
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Creates a publisher that emits `output` once.
    @inlinable
    public init(_ output: Output) { self.output = output }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let output = self.output
        subscriber.receive(subscription: JustSubscription {
            _ = subscriber.receive(output)
            subscriber.receive(completion: .finished)
        })
    }
}

extension Just: Equatable where Output: Equatable {}

/// `Just`'s subscription: runs `deliver` (which sends the value and `.finished`) on the first
/// request, or forgets it on cancel.
///
/// Not generic: the delivery is a closure made where the concrete subscriber is known, so it is
/// specialised, and releasing this object needs no runtime generic-metadata lookup (a generic
/// class with optional generic fields needs one in its deinit). One allocation holds both the
/// closure and the lock guarding it.
///
/// Sendable: `body` is guarded by `lock` (which makes accesses exclusive, so it skips the
/// dynamic exclusivity checks).
@usableFromInline
final class JustSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var body: (() -> Void)?

    @inlinable
    init(_ deliver: @escaping () -> Void) { body = deliver }

    @usableFromInline var description: String { "Just" }

    /// Takes the delivery closure out, under the lock.
    @inlinable
    func takeDelivery() -> (() -> Void)? {
        lock.lock()
        let taken = body.take()
        lock.unlock()
        return taken
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        takeDelivery()?()
    }

    @inlinable
    func cancel() {
        // The subscriber is released here, not under the lock.
        if takeDelivery() != nil {}
    }
}

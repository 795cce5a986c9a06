import Foundation

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
        subscriber.receive(subscription: JustSubscription.make {
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
/// closure (the header) and the mutex guarding it (the element), as `Lock` does for its mutex.
@usableFromInline
final class JustSubscription: ManagedBuffer<JustSubscription.Delivery, pthread_mutex_t>, Subscription,
    CustomStringConvertible
{
    /// The header. A struct around the closure, so that the closure is stored as it is made
    /// rather than wrapped in a reabstraction thunk (one more allocation) for the generic header.
    @frozen @usableFromInline
    struct Delivery {
        @usableFromInline var body: (() -> Void)?

        @inlinable init(_ body: @escaping () -> Void) { self.body = body }
    }

    @inlinable
    static func make(_ deliver: @escaping () -> Void) -> JustSubscription {
        let buffer = create(minimumCapacity: 1) { _ in Delivery(deliver) }
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
        return unsafeDowncast(buffer, to: JustSubscription.self)
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }

    @usableFromInline var description: String { "Just" }

    /// Takes the delivery closure out, under the mutex.
    @usableFromInline
    func takeDelivery() -> (() -> Void)? {
        withUnsafeMutablePointers { deliver, mutex in
            pthread_mutex_lock(mutex)
            let taken = deliver.pointee.body.take()
            pthread_mutex_unlock(mutex)
            return taken
        }
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        takeDelivery()?()
    }

    @usableFromInline
    func cancel() {
        // The subscriber is released here, not under the mutex.
        if takeDelivery() != nil {}
    }
}

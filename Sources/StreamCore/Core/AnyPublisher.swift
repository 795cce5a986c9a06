/// A publisher that performs type erasure by wrapping another publisher.
///
/// The wrapped publisher sits in a class box whose generic `receive(subscriber:)` the box of
/// each publisher type overrides (as Apple's Combine and OpenCombine do): a subscriber reaches
/// the publisher as it is, without an `AnySubscriber` (four closures) in between.
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    @usableFromInline let box: PublisherBoxBase<Output, Failure>

    /// Creates a type-erasing publisher to wrap the provided publisher.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
        } else {
            box = PublisherBox(publisher)
        }
    }

    public var description: String { "AnyPublisher" }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
    }
}

/// What every `AnyPublisher` box answers: a subscriber, of any type.
@usableFromInline
class PublisherBoxBase<Output, Failure: Error> {
    @inlinable init() {}

    @usableFromInline
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        preconditionFailure("PublisherBox overrides receive(subscriber:)")
    }
}

/// The box of one publisher type.
@usableFromInline
final class PublisherBox<Base: Publisher>: PublisherBoxBase<Base.Output, Base.Failure> {
    @usableFromInline let base: Base

    @inlinable
    init(_ base: Base) {
        self.base = base
        super.init()
    }

    @inlinable
    override func receive<S: Subscriber>(subscriber: S) where S.Input == Base.Output, S.Failure == Base.Failure {
        base.receive(subscriber: subscriber)
    }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { AnyPublisher(self) }
}

/// A subject that broadcasts elements to downstream subscribers.
///
/// Has no initial value or buffer: a value sent while a subscriber has no demand is dropped for
/// that subscriber.
/// Sendable: all of its state lives in `SubjectCore`, behind that core's lock.
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    @usableFromInline let core = SubjectCore<Output, Failure>()

    public init() {}

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }

    @inlinable public func send(_ input: Output) { core.send(input) }

    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    public func send(subscription: Subscription) { core.send(subscription: subscription) }
}

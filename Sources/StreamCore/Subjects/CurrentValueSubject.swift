/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A new subscriber receives the current value on its first demand.
/// Sendable: all of its state lives in `SubjectCore`, behind that core's lock.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    @usableFromInline let core: SubjectCore<Output, Failure>

    /// Creates a subject with the given initial value.
    public init(_ value: Output) {
        core = SubjectCore(current: value)
    }

    /// The value wrapped by this subject; setting it publishes the new value.
    public var value: Output {
        get { core.currentValue! }
        set { send(newValue) }
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }

    @inlinable public func send(_ input: Output) { core.send(input) }

    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    public func send(subscription: Subscription) { core.send(subscription: subscription) }
}

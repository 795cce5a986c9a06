/// A type-erasing subscriber.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline let receiveSubscriptionBody: (Subscription) -> Void
    @usableFromInline let receiveValueBody: (Input) -> Subscribers.Demand
    @usableFromInline let receiveCompletionBody: (Subscribers.Completion<Failure>) -> Void
    public let combineIdentifier: CombineIdentifier
    private let describe: () -> String

    /// Creates a type-erasing subscriber to wrap an existing subscriber.
    @inlinable
    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        if let erased = subscriber as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        self.init(
            identifier: subscriber.combineIdentifier,
            description: { String(describing: subscriber) },
            receiveSubscription: subscriber.receive(subscription:),
            receiveValue: subscriber.receive(_:),
            receiveCompletion: subscriber.receive(completion:)
        )
    }

    /// Creates a type-erasing subscriber that relays to a subject.
    public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
        let relay = SubjectSubscriber(subject)
        self.init(relay)
    }

    /// Creates a type-erasing subscriber that executes the provided closures.
    public init(
        receiveSubscription: ((Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        self.init(
            identifier: CombineIdentifier(),
            description: { "Anonymous AnySubscriber" },
            receiveSubscription: receiveSubscription ?? { _ in },
            receiveValue: receiveValue ?? { _ in .none },
            receiveCompletion: receiveCompletion ?? { _ in }
        )
    }

    @usableFromInline
    init(
        identifier: CombineIdentifier,
        description: @escaping () -> String,
        receiveSubscription: @escaping (Subscription) -> Void,
        receiveValue: @escaping (Input) -> Subscribers.Demand,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
    ) {
        combineIdentifier = identifier
        describe = description
        receiveSubscriptionBody = receiveSubscription
        receiveValueBody = receiveValue
        receiveCompletionBody = receiveCompletion
    }

    public var description: String { describe() }

    @inlinable public func receive(subscription: Subscription) { receiveSubscriptionBody(subscription) }

    @inlinable public func receive(_ value: Input) -> Subscribers.Demand { receiveValueBody(value) }

    @inlinable public func receive(completion: Subscribers.Completion<Failure>) {
        receiveCompletionBody(completion)
    }
}

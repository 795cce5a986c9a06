/// A type that can transmit a sequence of values over time to one or more subscribers.
///
/// Same contract as Apple's Combine: a publisher delivers values only in response to demand,
/// serially, and at most one completion, after which nothing else is delivered.
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output
    /// The kind of errors this publisher might publish.
    associatedtype Failure: Error

    /// Attaches the subscriber. Implementations call `subscriber.receive(subscription:)` once.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches the specified subscriber to this publisher.
    @inlinable
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }

    /// Attaches the specified subject to this publisher; the returned token ends the relay.
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
        where S.Output == Output, S.Failure == Failure
    {
        let relay = SubjectSubscriber(subject)
        subscribe(relay)
        return AnyCancellable(relay)
    }
}

/// A namespace for types that serve as publishers.
public enum Publishers {}

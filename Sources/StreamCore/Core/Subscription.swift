/// A protocol representing the connection of a subscriber to a publisher.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber.
    func request(_ demand: Subscribers.Demand)
}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {
    /// A subscription that does nothing: for publishers that complete at once.
    public static var empty: Subscription { EmptySubscription.singleton }
}

/// The shared no-op subscription.
final class EmptySubscription: Subscription, Sendable {
    static let singleton = EmptySubscription()
    private init() {}
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
}

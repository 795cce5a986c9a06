/// A protocol representing the connection of a subscriber to a publisher.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber.
    func request(_ demand: Subscribers.Demand)
}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {
    /// A subscription that does nothing: for publishers that complete at once.
    public static var empty: Subscription { EmptySubscription() }
}

/// The no-op subscription: `Subscriptions.empty`, and what a `Sink` holds before its
/// subscription arrives and after it lets it go. A struct, so that holding one in an
/// `any Subscription` costs no allocation, retain or release.
@frozen @usableFromInline
struct EmptySubscription: Subscription, Sendable {
    @inlinable init() {}
    @usableFromInline var combineIdentifier: CombineIdentifier { Self.identifier }
    @usableFromInline func request(_ demand: Subscribers.Demand) {}
    @usableFromInline func cancel() {}

    private static let identifier = CombineIdentifier()
}

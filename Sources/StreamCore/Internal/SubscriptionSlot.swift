/// The upstream subscription a subscriber holds: empty, then set, then taken.
///
/// Not an `Optional<any Subscription>`: the compiler copies and destroys one of those (even to
/// compare it with nil) through runtime metadata calls. The slot holds a plain existential — the
/// no-op `EmptySubscription` while empty, so asking it for demand or cancelling it does nothing
/// — and says whether it is set with a flag. Guarded by its owner's lock.
@frozen @usableFromInline
struct SubscriptionSlot {
    /// The subscription held, or the no-op one.
    @usableFromInline var subscription: any Subscription = EmptySubscription()
    /// Whether a subscription is held.
    @usableFromInline var isSet = false

    @inlinable init() {}

    /// Holds `subscription`.
    @inlinable
    mutating func set(_ subscription: Subscription) {
        self.subscription = subscription
        isSet = true
    }

    /// Moves the subscription out (the no-op one when none is held), leaving the slot empty.
    @inlinable
    mutating func take() -> any Subscription {
        var taken: any Subscription = EmptySubscription()
        swap(&taken, &subscription)
        isSet = false
        return taken
    }
}

/// Where an operator that delivers on a scheduler stands between its upstream and downstream.
///
/// Used by the time-based operators (`throttle`, `debounce`, `delay`, `timeout`, `receive(on:)`,
/// …). Holding the downstream and the upstream's subscription here, and dropping both on
/// `.terminal`, is what breaks the subscriber ↔ subscription cycle on cancel or completion.
@usableFromInline
enum ScheduledLinkState<Downstream> {
    /// Created, upstream not yet subscribed.
    case awaitingSubscription(Downstream)
    /// Connected both ways.
    case subscribed(Subscription, Downstream)
    /// The upstream completed; the completion waits on the scheduler.
    case finishing(Subscription, Downstream)
    /// Completed or cancelled: nothing more is delivered.
    case terminal

    /// The downstream, while anything may still be delivered to it.
    @inlinable var downstream: Downstream? {
        switch self {
        case .subscribed(_, let downstream), .finishing(_, let downstream): downstream
        case .awaitingSubscription, .terminal: nil
        }
    }

    /// The upstream's subscription, until terminal.
    @inlinable var subscription: Subscription? {
        switch self {
        case .subscribed(let subscription, _), .finishing(let subscription, _): subscription
        case .awaitingSubscription, .terminal: nil
        }
    }

    /// Whether values and completions from the upstream are still accepted.
    @inlinable var isSubscribed: Bool {
        if case .subscribed = self { true } else { false }
    }
}

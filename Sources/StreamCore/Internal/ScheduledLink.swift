import Locking

/// The base of the operators that deliver on a scheduler (`receive(on:)`, `subscribe(on:)`,
/// `delay`, `measureInterval`, `debounce`, `throttle`, `timeout`): the lock, the
/// `ScheduledLinkState`, and the steps they share. Subclasses guard their own fields with the
/// same `lock`, and never call the downstream or the upstream while holding it.
///
/// Inlinable, so that an operator built on it (`throttle`) is specialised for its scheduler and
/// downstream in the module that uses it; `state` skips the dynamic exclusivity checks
/// (`@exclusivity(unchecked)`): the lock makes its accesses exclusive.
@usableFromInline
class ScheduledLink<Downstream: Subscriber> {
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var state: ScheduledLinkState<Downstream>

    @inlinable
    init(downstream: Downstream) {
        state = .awaitingSubscription(downstream)
    }

    /// Takes the upstream's subscription (running `whileLocked` under the lock) and returns the
    /// downstream to hand this subscription to; a second subscription is cancelled (`nil`).
    @inlinable
    func connect(_ subscription: Subscription, whileLocked: () -> Void = {}) -> Downstream? {
        lock.lock()
        guard case .awaitingSubscription(let downstream) = state else {
            lock.unlock()
            subscription.cancel()
            return nil
        }
        state = .subscribed(subscription, downstream)
        whileLocked()
        lock.unlock()
        return downstream
    }

    /// Passes the downstream's demand to the upstream while subscribed.
    @inlinable
    func forward(_ demand: Subscribers.Demand) {
        lock.lock()
        guard case .subscribed(let subscription, _) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        subscription.request(demand)
    }

    /// Becomes terminal (running `whileLocked` under the lock) and returns the upstream's
    /// subscription, if any, for the caller to cancel.
    @inlinable
    func disconnect(whileLocked: () -> Void = {}) -> Subscription? {
        lock.lock()
        let subscription = state.subscription
        state = .terminal
        whileLocked()
        lock.unlock()
        return subscription
    }

    /// Delivers a value (on the scheduler) unless terminal, and asks the upstream for the demand
    /// the downstream adds.
    @inlinable
    func deliverScheduled(_ input: Downstream.Input) {
        lock.lock()
        guard let downstream = state.downstream, let subscription = state.subscription else {
            lock.unlock()
            return
        }
        lock.unlock()
        let more = downstream.receive(input)
        if more > 0 { subscription.request(more) }
    }

    /// The upstream completed: becomes `.finishing` (running `whileLocked` under the lock) and
    /// uses `schedule` to deliver the completion later, unless cancelled meanwhile.
    @inlinable
    func finish(
        _ completion: Subscribers.Completion<Downstream.Failure>,
        whileLocked: () -> Void = {},
        schedule: (@escaping () -> Void) -> Void
    ) {
        lock.lock()
        guard case .subscribed(let subscription, let downstream) = state else {
            lock.unlock()
            return
        }
        state = .finishing(subscription, downstream)
        whileLocked()
        lock.unlock()
        schedule {
            self.lock.lock()
            guard case .finishing(_, let downstream) = self.state else {
                self.lock.unlock()
                return
            }
            self.state = .terminal
            self.lock.unlock()
            downstream.receive(completion: completion)
        }
    }
}

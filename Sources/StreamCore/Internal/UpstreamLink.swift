import Locking

/// The base of operator subscriptions that sit between one upstream and one downstream and
/// pass demand straight through (`FilterProducer`, `output(in:)`, `collect(_:)`): the lock, the
/// upstream link (awaiting its subscription → connected → done) and the downstream, with the
/// steps they share. Subclasses guard their own fields with the same `lock`; nothing calls the
/// downstream or the upstream while holding it. The downstream is released on completion and
/// on cancel, so a downstream that keeps its subscription forms no cycle.
class UpstreamLink<Downstream: Subscriber> {
    enum State {
        case awaitingSubscription
        case connected(Subscription)
        case done
    }

    let lock = Lock()
    /// Guarded by `lock`.
    var state = State.awaitingSubscription
    /// Guarded by `lock`; nil once done.
    var downstream: Downstream?

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// Takes the upstream's subscription and returns the downstream to hand this subscription
    /// to; a second subscription, or one after cancel, is cancelled (`nil`).
    func connect(_ subscription: Subscription) -> Downstream? {
        lock.lock()
        guard case .awaitingSubscription = state, let downstream else {
            lock.unlock()
            subscription.cancel()
            return nil
        }
        state = .connected(subscription)
        lock.unlock()
        return downstream
    }

    /// Passes the downstream's demand to the upstream while connected.
    func forward(_ demand: Subscribers.Demand) {
        lock.lock()
        guard case .connected(let subscription) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        subscription.request(demand)
    }

    /// Ends the stream once: if still connected, becomes done (running `whileLocked` under the
    /// lock) and returns the upstream's subscription and the downstream, which it lets go of.
    func complete(whileLocked: () -> Void = {}) -> (subscription: Subscription, downstream: Downstream)? {
        lock.lock()
        guard case .connected(let subscription) = state, let downstream else {
            lock.unlock()
            return nil
        }
        state = .done
        self.downstream = nil
        whileLocked()
        lock.unlock()
        return (subscription, downstream)
    }

    /// Cancels: becomes done (running `whileLocked` under the lock), cancels the upstream if
    /// connected, and releases the downstream outside the lock.
    func disconnect(whileLocked: () -> Void = {}) {
        lock.lock()
        let previous = state
        let downstream = self.downstream
        state = .done
        self.downstream = nil
        whileLocked()
        lock.unlock()
        if case .connected(let subscription) = previous { subscription.cancel() }
        withExtendedLifetime(downstream) {}  // released here, not under the lock
    }
}

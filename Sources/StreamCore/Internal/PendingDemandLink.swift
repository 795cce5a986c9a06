import Locking

/// The base of operator subscriptions that hand themselves to the downstream before the
/// upstream has subscribed (`dropFirst`, `drop(untilOutputFrom:)`, `prefix(untilOutputFrom:)`):
/// demand asked for before the upstream's subscription arrives is held in `pending` and asked
/// of the upstream when it does; after that, requests pass straight through. Subclasses guard
/// their own fields with the same `lock`; nothing calls the downstream or the upstream while
/// holding it.
class PendingDemandLink<Downstream: Subscriber> {
    let lock = Lock()
    /// Guarded by `lock`; nil once completed or cancelled.
    var downstream: Downstream?
    /// Guarded by `lock`.
    var upstream: Subscription?
    /// Demand the downstream made before the upstream's subscription arrived. Guarded by `lock`.
    var pending = Subscribers.Demand.none

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// Takes the upstream's subscription and asks it for the pending demand plus `extra`; a
    /// second subscription, or one after cancel, is cancelled.
    func connect(_ subscription: Subscription, extra: Int = 0) {
        lock.lock()
        guard upstream == nil, downstream != nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        let demand = pending + extra
        pending = .none
        lock.unlock()
        if demand > 0 { subscription.request(demand) }
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        guard let upstream else {
            pending += demand
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }
}

/// The subscription behind `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)`: subscribes
/// to a trigger publisher (asking it for one element), then to the upstream, to which the
/// downstream's demand goes unchanged (see `PendingDemandLink`).
///
/// `Mode.dropUntil`: elements that arrive before the trigger fires are dropped and use up that
/// demand, as in Combine; the trigger finishing or failing before it fires ends the stream.
/// `Mode.prefixUntil`: elements pass until the trigger's first element, which cancels the
/// upstream and finishes; the trigger completing without one changes nothing.
final class UntilOutputCore<Downstream: Subscriber>: PendingDemandLink<Downstream>, Subscriber, Subscription,
    CustomStringConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    /// What the trigger's first element does.
    enum Mode {
        case dropUntil, prefixUntil
    }

    private let mode: Mode
    private var triggerSubscription: Subscription?
    /// Whether upstream elements go downstream (`.dropUntil`: only once the trigger fired).
    private var passing: Bool
    private var triggerDone = false

    let description: String

    init(downstream: Downstream, mode: Mode, description: String) {
        self.mode = mode
        self.passing = mode == .prefixUntil
        self.description = description
        super.init(downstream: downstream)
    }

    func receive(subscription: Subscription) { connect(subscription) }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard let downstream, upstream != nil, passing else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let downstream = self.downstream
        let trigger = triggerSubscription
        self.downstream = nil
        upstream = nil
        triggerSubscription = nil
        triggerDone = true
        lock.unlock()
        trigger?.cancel()
        downstream?.receive(completion: completion)
    }

    func triggerReceive(subscription: Subscription) {
        lock.lock()
        guard triggerSubscription == nil, !triggerDone, downstream != nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        triggerSubscription = subscription
        lock.unlock()
        subscription.request(.max(1))
    }

    /// The trigger emitted: start passing elements (`.dropUntil`) or end the stream (`.prefixUntil`).
    func triggerFired() {
        lock.lock()
        guard !triggerDone else {
            lock.unlock()
            return
        }
        triggerDone = true
        let trigger = triggerSubscription
        triggerSubscription = nil
        switch mode {
        case .dropUntil:
            passing = true
            lock.unlock()
            trigger?.cancel()
        case .prefixUntil:
            let upstream = self.upstream
            let downstream = self.downstream
            self.upstream = nil
            self.downstream = nil
            lock.unlock()
            upstream?.cancel()
            trigger?.cancel()
            downstream?.receive(completion: .finished)
        }
    }

    /// The trigger completed without emitting: with `ending`, that completion ends the stream
    /// (unless the trigger already fired); without, the trigger can no longer do anything.
    func triggerCompleted(ending completion: Subscribers.Completion<Failure>?) {
        lock.lock()
        guard let completion else {
            triggerDone = true
            triggerSubscription = nil
            lock.unlock()
            return
        }
        guard !triggerDone else {
            lock.unlock()
            return
        }
        triggerDone = true
        triggerSubscription = nil
        let upstream = self.upstream
        let downstream = self.downstream
        self.upstream = nil
        self.downstream = nil
        lock.unlock()
        upstream?.cancel()
        downstream?.receive(completion: completion)
    }

    func cancel() {
        lock.lock()
        let upstream = self.upstream
        let trigger = triggerSubscription
        let downstream = self.downstream
        self.upstream = nil
        triggerSubscription = nil
        self.downstream = nil
        triggerDone = true
        lock.unlock()
        upstream?.cancel()
        trigger?.cancel()
        _ = downstream  // released here, outside the lock
    }
}

/// Relays the trigger publisher's events to an `UntilOutputCore`; shares its combine identifier.
struct UntilOutputTrigger<Input, Failure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    let core: UntilOutputCore<Downstream>
    /// How the trigger's completion ends the stream; `nil`: it does not.
    let ending: ((Subscribers.Completion<Failure>) -> Subscribers.Completion<Downstream.Failure>)?

    var combineIdentifier: CombineIdentifier { core.combineIdentifier }
    var description: String { core.description }

    func receive(subscription: Subscription) { core.triggerReceive(subscription: subscription) }

    func receive(_ input: Input) -> Subscribers.Demand {
        core.triggerFired()
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        core.triggerCompleted(ending: ending?(completion))
    }
}

/// The state shared by `PassthroughSubject` and `CurrentValueSubject`: subscribers, the terminal
/// completion, the upstream subscriptions relayed into the subject and, for a current-value
/// subject, the current value. Every field is guarded by `lock`.
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var conduits: [SubjectConduit<Output, Failure>] = []
    private var completion: Subscribers.Completion<Failure>?
    private var upstreams: [Subscription] = []
    private var current: Output?
    let replaysCurrent: Bool

    /// A core for a passthrough subject.
    init() {
        current = nil
        replaysCurrent = false
    }

    /// A core for a current-value subject.
    init(current: Output) {
        self.current = current
        replaysCurrent = true
    }

    var currentValue: Output? {
        lock.lock(); defer { lock.unlock() }
        return current
    }

    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        let conduit = Conduit(parent: self, downstream: subscriber)
        // Deliveries wait until the subscriber has its subscription: a value or completion sent
        // from another thread meanwhile must not overtake it (a completion that did was dropped
        // by the subscriber, which then waited forever — e.g. a late joiner of `share()`).
        conduit.holdDeliveries()
        conduits.append(conduit)
        lock.unlock()
        subscriber.receive(subscription: conduit)
        conduit.releaseDeliveries()
    }

    func detach(_ conduit: SubjectConduit<Output, Failure>) {
        lock.lock()
        if let index = conduits.firstIndex(where: { $0 === conduit }) {
            conduits.remove(at: index)
        }
        lock.unlock()
    }

    /// Stores the value (for a current-value subject) and offers it to every subscriber.
    @inline(__always)
    func send(_ value: Output) {
        lock.lock()
        guard completion == nil else {
            lock.unlock()
            return
        }
        if replaysCurrent { current = value }
        let conduits = self.conduits
        lock.unlock()
        for conduit in conduits {
            conduit.offer(value)
        }
    }

    func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard self.completion == nil else {
            lock.unlock()
            return
        }
        self.completion = completion
        let conduits = self.conduits
        self.conduits = []
        upstreams = []
        lock.unlock()
        for conduit in conduits {
            conduit.finish(completion)
        }
    }

    func send(subscription: Subscription) {
        lock.lock()
        let active = completion == nil
        if active { upstreams.append(subscription) }
        lock.unlock()
        if active {
            subscription.request(.unlimited)
        } else {
            subscription.cancel()
        }
    }
}

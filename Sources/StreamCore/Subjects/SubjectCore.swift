import Locking

/// The state shared by `PassthroughSubject` and `CurrentValueSubject`: subscribers, the terminal
/// completion, the upstream subscriptions relayed into the subject and, for a current-value
/// subject, the current value. Every field is guarded by `lock` (hence `@exclusivity(unchecked)`:
/// the lock already makes accesses exclusive).
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var conduits: ContiguousArray<Conduit<Output, Failure>> = []
    @usableFromInline @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?
    /// `completion != nil`, as a plain flag for the hot path.
    @usableFromInline @exclusivity(unchecked) var terminated = false
    private var upstreams: [Subscription] = []
    @usableFromInline @exclusivity(unchecked) var current: Output?
    @usableFromInline let replaysCurrent: Bool

    /// A core for a passthrough subject.
    @usableFromInline
    init() {
        current = nil
        replaysCurrent = false
    }

    /// A core for a current-value subject.
    @usableFromInline
    init(current: Output) {
        self.current = current
        replaysCurrent = true
    }

    @usableFromInline
    var currentValue: Output? {
        lock.lock(); defer { lock.unlock() }
        return current
    }

    @inlinable
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

    @usableFromInline
    func detach(_ conduit: Conduit<Output, Failure>) {
        lock.lock()
        if let index = conduits.firstIndex(where: { $0 === conduit }) {
            conduits.remove(at: index)
        }
        lock.unlock()
    }

    /// Stores the value (for a current-value subject) and offers it to every subscriber. With a
    /// single subscriber, the common case, the list of subscribers is not copied.
    @inlinable
    func send(_ value: Output) {
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        if replaysCurrent { current = value }
        switch conduits.count {
        case 0:
            lock.unlock()
        case 1:
            let conduit = conduits[0]
            lock.unlock()
            conduit.offer(value)
        default:
            let conduits = self.conduits
            lock.unlock()
            for conduit in conduits {
                conduit.offer(value)
            }
        }
    }

    @usableFromInline
    func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard self.completion == nil else {
            lock.unlock()
            return
        }
        self.completion = completion
        terminated = true
        let conduits = self.conduits
        self.conduits = []
        upstreams = []
        lock.unlock()
        for conduit in conduits {
            conduit.finish(completion)
        }
    }

    @usableFromInline
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

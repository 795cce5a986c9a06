import Locking

/// The subscription behind `replaceEmpty(with:)` and `replaceError(with:)`: passes values and
/// demand straight through, and at the upstream's completion asks `decide` whether to pass a
/// completion on or to replace it with `output` followed by `.finished`.
///
/// It tracks the downstream's outstanding demand, so the replacement goes out only once the
/// downstream has asked for it: at once if demand is left when the upstream completes,
/// otherwise on the next request. (Apple's replaceEmpty requests `.unlimited` upstream; we
/// don't, so the downstream never receives more than it asked for.)
final class ReplacingProducer<Downstream: Subscriber, UpstreamFailure: Error>: Subscriber, Subscription,
    CustomStringConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = UpstreamFailure

    private enum State {
        case awaitingSubscription
        case connected(Subscription)
        /// The upstream completed, to be replaced, with no demand outstanding; `output` waits.
        case awaitingDemand
        case done
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    private var downstream: Downstream?
    private var receivedValue = false
    private var outstanding = Subscribers.Demand.none
    private let output: Input
    /// Given the upstream's completion and whether any value came, the completion to pass on,
    /// or `nil` to send `output` and finish instead.
    private let decide: (Subscribers.Completion<UpstreamFailure>, Bool) -> Subscribers.Completion<Downstream.Failure>?
    let description: String

    init(
        _ description: String,
        downstream: Downstream,
        output: Input,
        decide: @escaping (Subscribers.Completion<UpstreamFailure>, _ receivedValue: Bool) -> Subscribers.Completion<Downstream.Failure>?
    ) {
        self.description = description
        self.downstream = downstream
        self.output = output
        self.decide = decide
    }

    func receive(subscription: Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .connected(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .connected = state, let downstream else {
            lock.unlock()
            return .none
        }
        receivedValue = true
        outstanding -= 1
        lock.unlock()
        let more = downstream.receive(input)
        if more > 0 {
            lock.withLock { outstanding += more }
        }
        return more
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        lock.lock()
        guard case .connected = state, let downstream else {
            lock.unlock()
            return
        }
        let passed = decide(completion, receivedValue)
        if passed == nil, outstanding == .none {
            state = .awaitingDemand
            lock.unlock()
            return
        }
        state = .done
        self.downstream = nil
        lock.unlock()
        if let passed {
            downstream.receive(completion: passed)
        } else {
            _ = downstream.receive(output)
            downstream.receive(completion: .finished)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        lock.lock()
        switch state {
        case .connected(let subscription):
            outstanding += demand
            lock.unlock()
            subscription.request(demand)
        case .awaitingDemand:
            let downstream = self.downstream
            state = .done
            self.downstream = nil
            lock.unlock()
            _ = downstream?.receive(output)
            downstream?.receive(completion: .finished)
        case .awaitingSubscription, .done:
            lock.unlock()
        }
    }

    func cancel() {
        lock.lock()
        let previous = state
        state = .done
        downstream = nil
        lock.unlock()
        if case .connected(let subscription) = previous {
            subscription.cancel()
        }
    }
}

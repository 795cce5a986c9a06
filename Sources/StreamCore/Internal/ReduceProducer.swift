/// The base of operators that consume the whole upstream and emit at most one value when it
/// ends (`reduce`, `count`, `collect()`, `last`, `contains`, `allSatisfy`, `min`/`max`, …).
///
/// Requests unlimited values from the upstream as soon as it is subscribed. Subclasses keep
/// `result` up to date in `receive(newValue:)`, which may also end the stream early. The result
/// is delivered once the downstream has asked for something, then `.finished`.
class ReduceProducer<Downstream: Subscriber, Input, UpstreamFailure: Error>: Subscriber, Subscription,
    CustomStringConvertible
{
    typealias Failure = UpstreamFailure

    private enum State {
        case awaitingSubscription
        case connected(Subscription)
        /// The upstream is done; the result waits for downstream demand.
        case awaitingDemand
        case completed
    }

    let downstream: Downstream
    /// The value to emit on completion; `nil` emits nothing.
    var result: Downstream.Input?
    private let lock = Lock()
    private var state = State.awaitingSubscription
    private var downstreamRequested = false
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure

    init(
        downstream: Downstream,
        initial: Downstream.Input?,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure
    ) {
        self.downstream = downstream
        self.result = initial
        self.mapFailure = mapFailure
    }

    var description: String { "\(type(of: self))" }

    /// Folds a value into `result`; `.finished` ends early and emits the result, `.failure` fails.
    func receive(newValue: Input) -> PartialCompletion<Void, Downstream.Failure> {
        fatalError("abstract")
    }

    func receive(subscription: Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .connected(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .connected(let subscription) = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        switch receive(newValue: input) {
        case .continue:
            break
        case .finished:
            subscription.cancel()
            finishWithResult()
        case .failure(let error):
            lock.lock()
            state = .completed
            lock.unlock()
            subscription.cancel()
            downstream.receive(completion: .failure(error))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        switch completion {
        case .finished:
            finishWithResult()
        case .failure(let error):
            lock.lock()
            guard case .connected = state else {
                lock.unlock()
                return
            }
            state = .completed
            lock.unlock()
            downstream.receive(completion: .failure(mapFailure(error)))
        }
    }

    /// Emits the result and `.finished` now if the downstream asked, or on its first request.
    private func finishWithResult() {
        lock.lock()
        guard case .connected = state else {
            lock.unlock()
            return
        }
        guard downstreamRequested else {
            state = .awaitingDemand
            lock.unlock()
            return
        }
        state = .completed
        let result = self.result
        self.result = nil
        lock.unlock()
        if let result {
            _ = downstream.receive(result)
        }
        downstream.receive(completion: .finished)
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        lock.lock()
        downstreamRequested = true
        guard case .awaitingDemand = state else {
            lock.unlock()
            return
        }
        state = .completed
        let result = self.result
        self.result = nil
        lock.unlock()
        if let result {
            _ = downstream.receive(result)
        }
        downstream.receive(completion: .finished)
    }

    func cancel() {
        lock.lock()
        let previous = state
        state = .completed
        result = nil
        lock.unlock()
        if case .connected(let subscription) = previous {
            subscription.cancel()
        }
    }
}

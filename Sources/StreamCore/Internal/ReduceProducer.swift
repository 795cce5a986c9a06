import Locking

/// The base of operators that consume the whole upstream and emit at most one value when it
/// ends (`reduce`, `count`, `collect()`, `last`, `contains`, `allSatisfy`, `min`/`max`, …).
///
/// Requests unlimited values from the upstream as soon as it is subscribed. Subclasses fold each
/// value into the running result in `receive(newValue:into:)`, which may also end the stream
/// early. The result is delivered once the downstream has asked for something, then
/// `.finished`. The downstream and the result are released on cancel and on completion, so a
/// downstream that keeps its subscription forms no cycle.
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

    // Every field is guarded by `lock`. `downstream` is nil once completed or cancelled.
    private var downstream: Downstream?
    /// The value to emit on completion; `nil` emits nothing. Taken out of the lock while a
    /// value is being folded into it (see `receive(_:)`).
    private var result: Downstream.Input?
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
    func receive(newValue: Input, into result: inout Downstream.Input?) -> PartialCompletion<Void, Downstream.Failure> {
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
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .connected(let subscription) = state else {
            lock.unlock()
            return .none
        }
        // The fold runs outside the lock (it calls user code) on a value taken out of `result`;
        // a concurrent `cancel` thus never races with it. Put back only if still connected.
        var folded = result
        result = nil
        lock.unlock()
        let decision = receive(newValue: input, into: &folded)
        lock.lock()
        guard case .connected = state else {
            lock.unlock()
            return .none
        }
        result = folded
        lock.unlock()
        switch decision {
        case .continue:
            break
        case .finished:
            subscription.cancel()
            finishWithResult()
        case .failure(let error):
            guard let downstream = complete() else { break }
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
            guard let downstream = complete() else { return }
            downstream.receive(completion: .failure(mapFailure(error)))
        }
    }

    /// Marks a connected stream completed, forgetting the result; hands back the downstream.
    private func complete() -> Downstream? {
        lock.lock()
        guard case .connected = state else {
            lock.unlock()
            return nil
        }
        state = .completed
        let downstream = self.downstream
        self.downstream = nil
        result = nil
        lock.unlock()
        return downstream
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
        let downstream = self.downstream
        self.downstream = nil
        lock.unlock()
        if let result {
            _ = downstream?.receive(result)
        }
        downstream?.receive(completion: .finished)
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
        let downstream = self.downstream
        self.downstream = nil
        lock.unlock()
        if let result {
            _ = downstream?.receive(result)
        }
        downstream?.receive(completion: .finished)
    }

    func cancel() {
        lock.lock()
        let previous = state
        state = .completed
        let downstream = self.downstream
        let result = self.result
        self.downstream = nil
        self.result = nil
        lock.unlock()
        if case .connected(let subscription) = previous {
            subscription.cancel()
        }
        withExtendedLifetime((downstream, result)) {}  // released here, not under the lock
    }
}

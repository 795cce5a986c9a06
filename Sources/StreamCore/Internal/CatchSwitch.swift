import Locking

/// The engine of `catch` and `tryCatch`: forwards the upstream until it fails, then subscribes
/// to the replacement publisher and continues with it, carrying over the downstream's demand.
///
/// `outstanding` counts what the downstream asked for and has not yet received. While the
/// upstream runs it is kept up to date; between the failure and the replacement's subscription
/// new requests only add to it; the replacement is then asked for all of it at once, and from
/// there on requests go straight to the replacement.
final class CatchSwitch<Downstream: Subscriber, UpstreamFailure: Error, NewPublisher: Publisher>:
    Subscription, CustomStringConvertible
where NewPublisher.Output == Downstream.Input {
    typealias Output = Downstream.Input

    private enum State {
        case awaitingUpstream
        case upstream(Subscription)
        /// The upstream failed; the replacement has been subscribed to but hasn't answered.
        case switching
        case replacement(Subscription)
        case done
    }

    private let lock = Lock()
    private var state = State.awaitingUpstream
    private var downstream: Downstream?
    private var outstanding = Subscribers.Demand.none
    private let handler: (UpstreamFailure) -> Result<NewPublisher, Downstream.Failure>
    private let mapNewFailure: (NewPublisher.Failure) -> Downstream.Failure
    let description: String

    init(
        downstream: Downstream,
        name: String,
        handler: @escaping (UpstreamFailure) -> Result<NewPublisher, Downstream.Failure>,
        mapNewFailure: @escaping (NewPublisher.Failure) -> Downstream.Failure
    ) {
        self.downstream = downstream
        self.description = name
        self.handler = handler
        self.mapNewFailure = mapNewFailure
    }

    /// The subscriber to give the upstream.
    var upstreamSide: UpstreamSide { UpstreamSide(engine: self) }

    struct UpstreamSide: Subscriber, CustomStringConvertible {
        typealias Input = Output
        typealias Failure = UpstreamFailure
        let engine: CatchSwitch
        var combineIdentifier: CombineIdentifier { CombineIdentifier(engine) }
        var description: String { engine.description }
        func receive(subscription: Subscription) { engine.receiveUpstream(subscription: subscription) }
        func receive(_ input: Output) -> Subscribers.Demand { engine.receiveUpstream(input) }
        func receive(completion: Subscribers.Completion<UpstreamFailure>) { engine.receiveUpstream(completion: completion) }
    }

    struct ReplacementSide: Subscriber, CustomStringConvertible {
        typealias Input = Output
        typealias Failure = NewPublisher.Failure
        let engine: CatchSwitch
        var combineIdentifier: CombineIdentifier { CombineIdentifier(engine) }
        var description: String { engine.description }
        func receive(subscription: Subscription) { engine.receiveReplacement(subscription: subscription) }
        func receive(_ input: Output) -> Subscribers.Demand { engine.receiveReplacement(input) }
        func receive(completion: Subscribers.Completion<NewPublisher.Failure>) {
            engine.receiveReplacement(completion: completion)
        }
    }

    // MARK: Upstream

    private func receiveUpstream(subscription: Subscription) {
        lock.lock()
        guard case .awaitingUpstream = state, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .upstream(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    private func receiveUpstream(_ input: Output) -> Subscribers.Demand {
        lock.lock()
        guard case .upstream = state, let downstream else {
            lock.unlock()
            return .none
        }
        outstanding -= 1
        lock.unlock()
        let more = downstream.receive(input)
        if more > 0 {
            lock.withLock { outstanding += more }
        }
        return more
    }

    private func receiveUpstream(completion: Subscribers.Completion<UpstreamFailure>) {
        lock.lock()
        guard case .upstream = state, let downstream else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            finish(downstream, with: .finished)
        case .failure(let error):
            state = .switching
            lock.unlock()
            switch handler(error) {
            case .success(let replacement):
                replacement.subscribe(ReplacementSide(engine: self))
            case .failure(let error):
                lock.lock()
                guard case .switching = state else {
                    lock.unlock()
                    return
                }
                finish(downstream, with: .failure(error))
            }
        }
    }

    // MARK: Replacement

    private func receiveReplacement(subscription: Subscription) {
        lock.lock()
        guard case .switching = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .replacement(subscription)
        let demand = outstanding
        lock.unlock()
        if demand > 0 {
            subscription.request(demand)
        }
    }

    private func receiveReplacement(_ input: Output) -> Subscribers.Demand {
        lock.lock()
        guard case .replacement = state, let downstream else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return downstream.receive(input)
    }

    private func receiveReplacement(completion: Subscribers.Completion<NewPublisher.Failure>) {
        lock.lock()
        guard case .replacement = state, let downstream else {
            lock.unlock()
            return
        }
        finish(downstream, with: completion.mapError(mapNewFailure))
    }

    /// Ends the stream. Called with the lock held; releases it before calling the downstream.
    private func finish(_ downstream: Downstream, with completion: Subscribers.Completion<Downstream.Failure>) {
        state = .done
        self.downstream = nil
        lock.unlock()
        downstream.receive(completion: completion)
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        lock.lock()
        switch state {
        case .upstream(let subscription):
            outstanding += demand
            lock.unlock()
            subscription.request(demand)
        case .switching:
            outstanding += demand
            lock.unlock()
        case .replacement(let subscription):
            lock.unlock()
            subscription.request(demand)
        case .awaitingUpstream, .done:
            lock.unlock()
        }
    }

    func cancel() {
        lock.lock()
        let previous = state
        state = .done
        downstream = nil
        lock.unlock()
        switch previous {
        case .upstream(let subscription), .replacement(let subscription):
            subscription.cancel()
        case .awaitingUpstream, .switching, .done:
            break
        }
    }
}

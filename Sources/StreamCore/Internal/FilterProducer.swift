/// The base of operators that decide per value whether to pass something on, drop it, or end
/// the stream early (`tryMap`, `tryFilter`, `first(where:)`, `prefix(while:)`, …).
///
/// Subclasses override `receive(newValue:)`. The base passes demand straight through, asks the
/// upstream for one more value when one is dropped, cancels the upstream when the subclass ends
/// the stream, and never delivers anything after a completion. The downstream is released on
/// cancel and on completion, so a downstream that keeps its subscription forms no cycle.
class FilterProducer<Downstream: Subscriber, Input, UpstreamFailure: Error>: Subscriber, Subscription,
    CustomStringConvertible
{
    typealias Failure = UpstreamFailure

    private enum State {
        case awaitingSubscription
        case connected(Subscription)
        case completed
    }

    // `state` and `downstream` are guarded by `lock`; `downstream` is nil once completed.
    private let lock = Lock()
    private var state = State.awaitingSubscription
    private var downstream: Downstream?
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure

    init(downstream: Downstream, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure) {
        self.downstream = downstream
        self.mapFailure = mapFailure
    }

    var description: String { "\(type(of: self))" }

    /// Decides what to do with an upstream value: `.continue(nil)` drops it.
    func receive(newValue: Input) -> PartialCompletion<Downstream.Input?, Downstream.Failure> {
        fatalError("abstract")
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
        guard case .connected(let subscription) = state, let downstream else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        switch receive(newValue: input) {
        case .continue(let output?):
            return downstream.receive(output)
        case .continue(nil):
            return .max(1)
        case .finished:
            end(subscription, with: .finished)
        case .failure(let error):
            end(subscription, with: .failure(error))
        }
        return .none
    }

    /// Marks the stream completed and hands back the downstream, if it was still connected.
    private func complete() -> Downstream? {
        lock.lock()
        guard case .connected = state else {
            lock.unlock()
            return nil
        }
        state = .completed
        let downstream = self.downstream
        self.downstream = nil
        lock.unlock()
        return downstream
    }

    private func end(_ subscription: Subscription, with completion: Subscribers.Completion<Downstream.Failure>) {
        guard let downstream = complete() else { return }
        subscription.cancel()
        downstream.receive(completion: completion)
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard let downstream = complete() else { return }
        switch completion {
        case .finished:
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(mapFailure(error)))
        }
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        lock.lock()
        guard case .connected(let subscription) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        subscription.request(demand)
    }

    func cancel() {
        lock.lock()
        let previous = state
        state = .completed
        let downstream = self.downstream
        self.downstream = nil
        lock.unlock()
        if case .connected(let subscription) = previous {
            subscription.cancel()
        }
        withExtendedLifetime(downstream) {}  // released here, not under the lock
    }
}

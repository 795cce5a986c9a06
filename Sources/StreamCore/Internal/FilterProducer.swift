/// The base of operators that decide per value whether to pass something on, drop it, or end
/// the stream early (`tryMap`, `tryFilter`, `first(where:)`, `prefix(while:)`, …).
///
/// Subclasses override `receive(newValue:)`. The base passes demand straight through, asks the
/// upstream for one more value when one is dropped, cancels the upstream when the subclass ends
/// the stream, and never delivers anything after a completion. The downstream is released on
/// cancel and on completion, so a downstream that keeps its subscription forms no cycle.
class FilterProducer<Downstream: Subscriber, Input, UpstreamFailure: Error>: UpstreamLink<Downstream>, Subscriber,
    Subscription, CustomStringConvertible
{
    typealias Failure = UpstreamFailure

    private let mapFailure: (UpstreamFailure) -> Downstream.Failure

    init(downstream: Downstream, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure) {
        self.mapFailure = mapFailure
        super.init(downstream: downstream)
    }

    var description: String { "\(type(of: self))" }

    /// Decides what to do with an upstream value: `.continue(nil)` drops it.
    func receive(newValue: Input) -> PartialCompletion<Downstream.Input?, Downstream.Failure> {
        fatalError("abstract")
    }

    func receive(subscription: Subscription) { connect(subscription)?.receive(subscription: self) }

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

    private func end(_ subscription: Subscription, with completion: Subscribers.Completion<Downstream.Failure>) {
        guard let (_, downstream) = complete() else { return }
        subscription.cancel()
        downstream.receive(completion: completion)
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard let (_, downstream) = complete() else { return }
        switch completion {
        case .finished:
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(mapFailure(error)))
        }
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "demand must be positive")
        forward(demand)
    }

    func cancel() { disconnect() }
}

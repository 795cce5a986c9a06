/// A `ReduceProducer` whose fold is a closure: the one shape shared by the reducing, mathematic
/// and matching operators (`collect`, `reduce`, `count`, `max`, `contains`, `first`, `last`, …).
///
/// `step` updates the running result in place and says whether to go on, finish early (emitting
/// the result) or fail. It runs on the upstream's delivery, never under the producer's lock.
final class ClosureReduceProducer<Downstream: Subscriber, Input, UpstreamFailure: Error>:
    ReduceProducer<Downstream, Input, UpstreamFailure>
{
    typealias Step = (inout Downstream.Input?, Input) -> PartialCompletion<Void, Downstream.Failure>

    private let name: String
    private let step: Step

    init(
        _ name: String,
        downstream: Downstream,
        initial: Downstream.Input?,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        step: @escaping Step
    ) {
        self.name = name
        self.step = step
        super.init(downstream: downstream, initial: initial, mapFailure: mapFailure)
    }

    override var description: String { name }

    override func receive(
        newValue: Input,
        into result: inout Downstream.Input?
    ) -> PartialCompletion<Void, Downstream.Failure> {
        step(&result, newValue)
    }
}

/// A `FilterProducer` whose per-value decision is a closure (`drop(while:)`, `prefix(while:)`
/// and their `try` forms). A closure with state must be made afresh for each subscription.
final class ClosureFilterProducer<Downstream: Subscriber, Input, UpstreamFailure: Error>:
    FilterProducer<Downstream, Input, UpstreamFailure>
{
    typealias Decide = (Input) -> PartialCompletion<Downstream.Input?, Downstream.Failure>

    private let name: String
    private let decide: Decide

    init(
        _ name: String,
        downstream: Downstream,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        decide: @escaping Decide
    ) {
        self.name = name
        self.decide = decide
        super.init(downstream: downstream, mapFailure: mapFailure)
    }

    override var description: String { name }

    override func receive(newValue: Input) -> PartialCompletion<Downstream.Input?, Downstream.Failure> {
        decide(newValue)
    }
}

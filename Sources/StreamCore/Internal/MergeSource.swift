/// The subscriber MergeCore attaches to each of its sources.
struct MergeSource<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let core: MergeCore<Downstream>
    let id: Int
    let combineIdentifier = CombineIdentifier()

    var description: String { core.description }

    func receive(subscription: Subscription) { core.receive(subscription: subscription, from: id) }

    func receive(_ input: Input) -> Subscribers.Demand { core.receive(input, from: id) }

    func receive(completion: Subscribers.Completion<Failure>) { core.receive(completion: completion, from: id) }
}

/// Subscribes `downstream` to a MergeCore, then attaches each source in order (`sources` is each
/// upstream's `subscribe`): the one entry point of `Merge`…`Merge8` and `MergeMany`.
func subscribeMerging<Downstream: Subscriber>(
    _ downstream: Downstream,
    _ sources: [(MergeSource<Downstream>) -> Void]
) {
    let core = MergeCore(downstream: downstream, openSources: sources.count)
    downstream.receive(subscription: core)
    for attach in sources {
        guard let id = core.addSource(counted: false) else { return }
        attach(MergeSource(core: core, id: id))
    }
    if sources.isEmpty { core.resume() }
}

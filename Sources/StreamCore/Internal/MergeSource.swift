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

/// A `FilterProducer` that maps each value through a throwing closure (`tryMap`,
/// `tryCompactMap`, `encode`, `decode`): a `nil` result drops the value (and asks for one
/// more), a thrown error cancels the upstream and fails the stream with it.
final class ThrowingMapProducer<Downstream: Subscriber, Input, UpstreamFailure: Error>:
    FilterProducer<Downstream, Input, UpstreamFailure>
where Downstream.Failure == Error {
    private let name: String
    private let transform: (Input) throws -> Downstream.Input?

    init(_ name: String, downstream: Downstream, transform: @escaping (Input) throws -> Downstream.Input?) {
        self.name = name
        self.transform = transform
        super.init(downstream: downstream, mapFailure: { $0 })
    }

    override var description: String { name }

    override func receive(newValue: Input) -> PartialCompletion<Downstream.Input?, Error> {
        do {
            return .continue(try transform(newValue))
        } catch {
            return .failure(error)
        }
    }
}

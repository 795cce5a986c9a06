/// A publisher that emits an output to each subscriber just once, and then finishes.
public struct Just<Output>: Publisher {
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Creates a publisher that emits `output` once.
    public init(_ output: Output) { self.output = output }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: Inner(value: output, downstream: subscriber))
    }

    private final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible
    where Downstream.Input == Output {
        private let lock = Lock()
        private var value: Output?
        private var downstream: Downstream?

        init(value: Output, downstream: Downstream) {
            self.value = value
            self.downstream = downstream
        }

        var description: String { "Just" }

        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "demand must be positive")
            lock.lock()
            guard let downstream, let value else {
                lock.unlock()
                return
            }
            self.downstream = nil
            self.value = nil
            lock.unlock()
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        }

        func cancel() {
            lock.lock()
            downstream = nil
            value = nil
            lock.unlock()
        }
    }
}

extension Just: Equatable where Output: Equatable {}

import Locking

extension Result {
    /// A publisher that publishes an output to each subscriber exactly once then finishes, or
    /// fails immediately without producing any elements.
    public struct Publisher: StreamCore.Publisher {
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        public let result: Result<Success, Failure>

        /// Creates a publisher that delivers the specified result.
        public init(_ result: Result<Success, Failure>) { self.result = result }

        /// Creates a publisher that sends the specified output to each subscriber then finishes.
        public init(_ output: Output) { result = .success(output) }

        /// Creates a publisher that immediately terminates with the specified failure.
        public init(_ failure: Failure) { result = .failure(failure) }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            switch result {
            case .success(let value):
                subscriber.receive(subscription: SingleValueSubscription(value: value, downstream: subscriber))
            case .failure(let error):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(error))
            }
        }
    }

    /// A publisher that emits this result to each subscriber.
    public var publisher: Publisher { Publisher(self) }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}

/// A subscription that delivers one value on the first demand, then `.finished`.
final class SingleValueSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    private let lock = Lock()
    private var value: Downstream.Input?
    private var downstream: Downstream?
    let description: String

    init(value: Downstream.Input, downstream: Downstream, description: String = "Once") {
        self.value = value
        self.downstream = downstream
        self.description = description
    }

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

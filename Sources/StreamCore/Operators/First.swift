extension Publishers {
    /// A publisher that publishes the first element of a stream, then finishes.
    public struct First<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher for the first element of `upstream`.
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ClosureReduceProducer(
                "First", downstream: subscriber, initial: nil, mapFailure: { $0 }
            ) { result, value in
                result = value
                return .finished
            })
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the first element of a stream, then finishes and cancels the upstream.
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }
}

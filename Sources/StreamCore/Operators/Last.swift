extension Publishers {
    /// A publisher that only publishes the last element of a stream, once the stream
    /// finishes.
    public struct Last<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher for the last element of `upstream`.
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ClosureReduceProducer(
                "Last", downstream: subscriber, initial: nil, mapFailure: { $0 }
            ) { result, value in
                result = value
                return .continue(())
            })
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the last element of a stream, after the stream finishes.
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }
}

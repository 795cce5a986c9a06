extension Publishers {
    /// A publisher that publishes the number of elements received from the upstream publisher
    /// when it finishes.
    public struct Count<Upstream: Publisher>: Publisher {
        public typealias Output = Int
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that counts `upstream`'s elements.
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ClosureReduceProducer(
                "Count", downstream: subscriber, initial: 0, mapFailure: { $0 }
            ) { result, _ in
                result = (result ?? 0) + 1
                return .continue(())
            })
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the number of elements received from the upstream publisher once it finishes.
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}

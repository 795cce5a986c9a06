extension Publishers {
    /// A publisher that buffers all elements from its upstream and emits them as one array when
    /// the upstream finishes.
    public struct Collect<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that collects every element of `upstream`.
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ClosureReduceProducer(
                "Collect", downstream: subscriber, initial: [], mapFailure: { $0 }
            ) { result, value in
                result?.append(value)
                return .continue(())
            })
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Collects all received elements, and emits a single array of the collection when the
    /// upstream publisher finishes. A failure discards the collection.
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}

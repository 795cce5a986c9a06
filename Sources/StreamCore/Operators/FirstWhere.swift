extension Publishers {
    /// A publisher that only publishes the first element of a stream to satisfy a predicate
    /// closure.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether to publish an element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher for the first element of `upstream` that satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(ClosureReduceProducer(
                "FirstWhere", downstream: subscriber, initial: nil, mapFailure: { $0 }
            ) { result, value in
                guard predicate(value) else { return .continue(()) }
                result = value
                return .finished
            })
        }
    }
}

extension Publisher {
    /// Publishes the first element of a stream to satisfy a predicate closure, then
    /// finishes and cancels the upstream.
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }
}

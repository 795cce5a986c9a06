extension Publishers {
    /// A publisher that only publishes the last element of a stream that satisfies a
    /// predicate closure, once the stream finishes.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether to publish an element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher for the last element of `upstream` that satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(ClosureReduceProducer(
                "LastWhere", downstream: subscriber, initial: nil, mapFailure: { $0 }
            ) { result, value in
                guard predicate(value) else { return .continue(()) }
                result = value
                return .continue(())
            })
        }
    }
}

extension Publisher {
    /// Publishes the last element of a stream that satisfies a predicate closure, after the
    /// stream finishes.
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }
}

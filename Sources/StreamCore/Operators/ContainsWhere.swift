extension Publishers {
    /// A publisher that emits a Boolean value upon receiving an element that satisfies the
    /// predicate closure, or `false` when the upstream finishes without one.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether the publisher should consider an element a match.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that looks for an element of `upstream` matching `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(ClosureReduceProducer(
                "ContainsWhere", downstream: subscriber, initial: false, mapFailure: { $0 }
            ) { result, value in
                guard predicate(value) else { return .continue(()) }
                result = true
                return .finished
            })
        }
    }
}

extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the predicate closure;
    /// the upstream is cancelled on the first match.
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }
}

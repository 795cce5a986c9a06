extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received
    /// elements pass a given predicate.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that evaluates each received element; `false` ends the stream at once.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that checks every element of `upstream` against `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(ClosureReduceProducer(
                "AllSatisfy", downstream: subscriber, initial: true, mapFailure: { $0 }
            ) { result, value in
                guard !predicate(value) else { return .continue(()) }
                result = false
                return .finished
            })
        }
    }
}

extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a
    /// given predicate; the first element that fails it cancels the upstream.
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }
}

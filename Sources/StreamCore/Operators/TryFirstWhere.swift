extension Publishers {
    /// A publisher that only publishes the first element of a stream to satisfy a throwing
    /// predicate closure.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether to publish an element.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher for the first element of `upstream` that satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(ClosureReduceProducer(
                "TryFirstWhere", downstream: subscriber, initial: nil, mapFailure: { $0 }
            ) { result, value in
                do {
                    guard try predicate(value) else { return .continue(()) }
                } catch {
                    return .failure(error)
                }
                result = value
                return .finished
            })
        }
    }
}

extension Publisher {
    /// Publishes the first element of a stream to satisfy a throwing predicate closure; a
    /// thrown error cancels the upstream and fails.
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that only publishes the last element of a stream that satisfies an
    /// error-throwing predicate closure, once the stream finishes.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether to publish an element.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher for the last element of `upstream` that satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(ClosureReduceProducer(
                "TryLastWhere", downstream: subscriber, initial: nil, mapFailure: { $0 }
            ) { result, value in
                do {
                    guard try predicate(value) else { return .continue(()) }
                } catch {
                    return .failure(error)
                }
                result = value
                return .continue(())
            })
        }
    }
}

extension Publisher {
    /// Publishes the last element of a stream that satisfies an error-throwing predicate
    /// closure, after the stream finishes.
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that emits a Boolean value upon receiving an element that satisfies the
    /// throwing predicate closure; a thrown error fails the publisher.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether this publisher should emit `true`.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that looks for an element of `upstream` matching `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(ClosureReduceProducer(
                "TryContainsWhere", downstream: subscriber, initial: false, mapFailure: { $0 }
            ) { result, value in
                do {
                    guard try predicate(value) else { return .continue(()) }
                    result = true
                    return .finished
                } catch {
                    return .failure(error)
                }
            })
        }
    }
}

extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the throwing predicate
    /// closure; a match or a thrown error cancels the upstream.
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}

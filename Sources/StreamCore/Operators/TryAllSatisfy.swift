extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received
    /// elements pass a given error-throwing predicate.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that evaluates each received element; a thrown error fails the publisher.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that checks every element of `upstream` against `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(ClosureReduceProducer(
                "TryAllSatisfy", downstream: subscriber, initial: true, mapFailure: { $0 }
            ) { result, value in
                do {
                    guard try !predicate(value) else { return .continue(()) }
                    result = false
                    return .finished
                } catch {
                    return .failure(error)
                }
            })
        }
    }
}

extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a
    /// given error-throwing predicate.
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes the maximum (or, with the order reversed, the minimum) of its
    /// upstream under an error-throwing ordering closure, when the upstream finishes.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that receives two elements and returns true if they are in increasing
        /// order; a thrown error fails the publisher.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that keeps the greatest element under `areInIncreasingOrder`.
        public init(
            upstream: Upstream,
            areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let ordered = areInIncreasingOrder
            upstream.subscribe(ClosureReduceProducer(
                "TryComparison", downstream: subscriber, initial: nil, mapFailure: { $0 }
            ) { result, value in
                do {
                    if let best = result, try !ordered(best, value) { return .continue(()) }
                    result = value
                    return .continue(())
                } catch {
                    return .failure(error)
                }
            })
        }
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher, using the provided
    /// error-throwing closure to order the items, after it finishes.
    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        tryMax { try areInIncreasingOrder($1, $0) }
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided
    /// error-throwing closure to order the items, after it finishes.
    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

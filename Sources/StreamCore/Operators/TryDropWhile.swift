extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given error-throwing
    /// closure returns false.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that drops `upstream`'s leading elements matching `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            // Per subscription; only touched by the upstream's serial deliveries.
            var dropping = true
            upstream.subscribe(ClosureFilterProducer("TryDropWhile", downstream: subscriber, mapFailure: { $0 }) { value in
                if dropping {
                    do {
                        if try predicate(value) { return .continue(nil) }
                    } catch {
                        return .failure(error)
                    }
                    dropping = false
                }
                return .continue(value)
            })
        }
    }
}

extension Publisher {
    /// Omits elements from the upstream publisher until an error-throwing closure returns
    /// false, before republishing all remaining elements. A thrown error cancels the upstream
    /// and fails.
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

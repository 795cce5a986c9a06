extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given closure returns
    /// false, then republishes everything.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that drops `upstream`'s leading elements matching `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            // Per subscription; only touched by the upstream's serial deliveries.
            var dropping = true
            upstream.subscribe(ClosureFilterProducer("DropWhile", downstream: subscriber, mapFailure: { $0 }) { value in
                if dropping {
                    if predicate(value) { return .continue(nil) }
                    dropping = false
                }
                return .continue(value)
            })
        }
    }
}

extension Publisher {
    /// Omits elements from the upstream publisher until a given closure returns false, before
    /// republishing all remaining elements. Each dropped element is replaced by a request for
    /// one more upstream, so the downstream's demand is honoured exactly.
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that republishes elements while a predicate closure indicates publishing
    /// should continue.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher of `upstream`'s leading elements that match `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(ClosureFilterProducer("PrefixWhile", downstream: subscriber, mapFailure: { $0 }) { value in
                predicate(value) ? .continue(value) : .finished
            })
        }
    }
}

extension Publisher {
    /// Republishes elements while a predicate closure indicates publishing should continue;
    /// the first element that fails it cancels the upstream and finishes.
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that republishes elements while an error-throwing predicate closure indicates
    /// publishing should continue.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher of `upstream`'s leading elements that match `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(ClosureFilterProducer("TryPrefixWhile", downstream: subscriber, mapFailure: { $0 }) { value in
                do {
                    return try predicate(value) ? .continue(value) : .finished
                } catch {
                    return .failure(error)
                }
            })
        }
    }
}

extension Publisher {
    /// Republishes elements while an error-throwing predicate closure indicates publishing
    /// should continue; `false` finishes, a thrown error fails, and both cancel the upstream.
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}

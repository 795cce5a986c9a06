extension Publishers {
    /// A publisher that republishes all non-`nil` results of calling an error-throwing closure
    /// with each received element; a thrown error cancels the upstream and fails the stream.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure that receives values from the upstream and returns optionals.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates a publisher that republishes the non-`nil` results of `transform`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ThrowingMapProducer("TryCompactMap", downstream: subscriber, transform: transform))
        }
    }
}

extension Publisher {
    /// Calls an error-throwing closure with each received element and publishes any returned
    /// optional that has a value.
    public func tryCompactMap<T>(
        _ transform: @escaping (Output) throws -> T?
    ) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers.TryCompactMap {
    /// Fuses a compact-map into this try-compact-map.
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
    }
}

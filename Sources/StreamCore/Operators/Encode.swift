extension Publishers {
    /// A publisher that encodes elements received from an upstream publisher, using a given
    /// encoder. A failed encoding cancels the upstream and fails with the encoder's error.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher
    where Upstream.Output: Encodable {
        public typealias Output = Coder.Output
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        private let encoder: Coder

        /// Creates a publisher that encodes the upstream's elements with `encoder`.
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ThrowingMapProducer("Encode", downstream: subscriber) { [encoder] in try encoder.encode($0) })
        }
    }
}

extension Publisher where Output: Encodable {
    /// Encodes the output from upstream using a specified encoder.
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

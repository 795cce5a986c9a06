extension Publishers {
    /// A publisher that replaces any error from the upstream publisher with a provided element,
    /// then finishes.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces an upstream error with `output`.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(ReplacingProducer("ReplaceError", downstream: subscriber, output: output) { completion, _ in
                if case .failure = completion { return nil }
                return .finished
            })
        }
    }
}

extension Publisher {
    /// Replaces any error in the stream with the provided element, then finishes.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

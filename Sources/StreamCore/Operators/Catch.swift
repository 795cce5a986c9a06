extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed
    /// publisher with another publisher.
    ///
    /// Values published before the failure are kept; after it, the stream continues with the
    /// replacement, which is asked for exactly the demand the downstream had left.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = NewPublisher.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that accepts the upstream failure as input and returns a publisher to
        /// replace the upstream publisher.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a publisher that replaces a failed `upstream` with `handler`'s publisher.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            let engine = CatchSwitch<S, Upstream.Failure, NewPublisher>(
                downstream: subscriber,
                name: "Catch",
                handler: { .success(handler($0)) },
                mapNewFailure: { $0 }
            )
            upstream.subscribe(engine.upstreamSide)
        }
    }
}

extension Publisher {
    /// Handles errors from an upstream publisher by replacing it with another publisher.
    public func `catch`<P: Publisher>(
        _ handler: @escaping (Failure) -> P
    ) -> Publishers.Catch<Self, P> where P.Output == Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}

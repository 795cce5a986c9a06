extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed
    /// publisher with another publisher or producing a new error.
    ///
    /// Because the handler can throw, the failure type is `Error`; a thrown error ends the stream.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that accepts the upstream failure as input and either returns a publisher
        /// to replace the upstream publisher or throws an error.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a publisher that replaces a failed `upstream` with `handler`'s publisher, or
        /// fails with the error `handler` throws.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            let engine = CatchSwitch<S, Upstream.Failure, NewPublisher>(
                downstream: subscriber,
                name: "TryCatch",
                handler: { error in Result { try handler(error) } },
                mapNewFailure: { $0 }
            )
            upstream.subscribe(engine.upstreamSide)
        }
    }
}

extension Publisher {
    /// Handles errors from an upstream publisher by either replacing it with another publisher
    /// or throwing a new error.
    public func tryCatch<P: Publisher>(
        _ handler: @escaping (Failure) throws -> P
    ) -> Publishers.TryCatch<Self, P> where P.Output == Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

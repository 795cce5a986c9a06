extension Publishers {
    /// A publisher that emits a Boolean value when a specified element is received from its
    /// upstream publisher, or `false` when the upstream finishes without it.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The element to scan for in the upstream publisher.
        public let output: Upstream.Output

        /// Creates a publisher that looks for `output` in `upstream`.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let wanted = output
            upstream.subscribe(ClosureReduceProducer(
                "Contains", downstream: subscriber, initial: false, mapFailure: { $0 }
            ) { result, value in
                guard value == wanted else { return .continue(()) }
                result = true
                return .finished
            })
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

extension Publisher where Output: Equatable {
    /// Publishes a Boolean value upon receiving an element equal to the argument; the upstream
    /// is cancelled on the first match.
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that applies a closure to all received elements and produces an accumulated
    /// value when the upstream publisher finishes.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The initial value provided on the first invocation of the closure.
        public let initial: Output
        /// A closure that takes the previously-accumulated value and the next element, and
        /// returns a new accumulated value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that folds `upstream`'s elements into one value.
        public init(
            upstream: Upstream,
            initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            upstream.subscribe(ClosureReduceProducer(
                "Reduce", downstream: subscriber, initial: initial, mapFailure: { $0 }
            ) { result, value in
                if let partial = result { result = next(partial, value) }
                return .continue(())
            })
        }
    }
}

extension Publisher {
    /// Applies a closure that collects each element of a stream and publishes a final result
    /// upon completion.
    public func reduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that applies an error-throwing closure to all received elements and produces
    /// an accumulated value when the upstream publisher finishes.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The initial value provided on the first invocation of the closure.
        public let initial: Output
        /// An error-throwing closure that takes the previously-accumulated value and the next
        /// element, and returns a new accumulated value.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that folds `upstream`'s elements into one value, or fails.
        public init(
            upstream: Upstream,
            initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            upstream.subscribe(ClosureReduceProducer(
                "TryReduce", downstream: subscriber, initial: initial, mapFailure: { $0 }
            ) { result, value in
                guard let partial = result else { return .continue(()) }
                do {
                    result = try next(partial, value)
                    return .continue(())
                } catch {
                    return .failure(error)
                }
            })
        }
    }
}

extension Publisher {
    /// Applies an error-throwing closure that collects each element of a stream and publishes a
    /// final result upon completion. A thrown error cancels the upstream and fails.
    public func tryReduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that accumulates elements with an error-throwing closure and publishes each
    /// partial result; a thrown error cancels the upstream and fails the stream.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The value passed to the closure with the first upstream element.
        public let initialResult: Output
        /// An error-throwing closure that takes the previous result and the next element.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that accumulates upstream elements with a throwing closure.
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, initial: initialResult, next: nextPartialResult))
        }

        private final class Inner<Downstream: Subscriber>:
            FilterProducer<Downstream, Upstream.Output, Upstream.Failure>
        where Downstream.Input == Output, Downstream.Failure == Error {
            private let next: (Output, Upstream.Output) throws -> Output
            /// Touched only from `receive(newValue:)`, which upstream calls serially.
            private var result: Output

            init(downstream: Downstream, initial: Output, next: @escaping (Output, Upstream.Output) throws -> Output) {
                self.next = next
                self.result = initial
                super.init(downstream: downstream, mapFailure: { $0 })
            }

            override var description: String { "TryScan" }

            override func receive(newValue: Upstream.Output) -> PartialCompletion<Output?, Error> {
                do {
                    result = try next(result, newValue)
                    return .continue(result)
                } catch {
                    return .failure(error)
                }
            }
        }
    }
}

extension Publisher {
    /// Transforms elements by providing the current element to an error-throwing closure along
    /// with the last value returned by the closure.
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

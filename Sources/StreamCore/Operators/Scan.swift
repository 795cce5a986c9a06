extension Publishers {
    /// A publisher that transforms elements by providing the current element to a closure along
    /// with the last value returned by the closure, and publishes each result.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The value passed to the closure with the first upstream element.
        public let initialResult: Output
        /// A closure that takes the previous result and the next element and returns a new result.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that accumulates upstream elements, publishing each partial result.
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, initial: initialResult, next: nextPartialResult))
        }

        /// One value in, one value out: the upstream's subscription goes straight to the
        /// downstream. `result` needs no lock because it is touched only in `receive(_:)`, which
        /// the Publisher contract calls serially; for the same reason it opts out of dynamic
        /// exclusivity checks, which cost more than the rest of the path when unspecialized.
        @usableFromInline
        final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let next: (Output, Upstream.Output) -> Output
            @usableFromInline @exclusivity(unchecked) var result: Output

            @inlinable
            init(downstream: Downstream, initial: Output, next: @escaping (Output, Upstream.Output) -> Output) {
                self.downstream = downstream
                self.result = initial
                self.next = next
            }

            @usableFromInline var description: String { "Scan" }

            @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }

            @inlinable func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                result = next(result, input)
                return downstream.receive(result)
            }

            @inlinable func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Transforms elements by providing the current element to a closure along with the last
    /// value returned by the closure.
    @inlinable
    public func scan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

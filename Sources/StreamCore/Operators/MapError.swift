extension Publishers {
    /// A publisher that converts any failure from the upstream publisher into a new error.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that converts the upstream failure into a new error.
        public let transform: (Upstream.Failure) -> Failure

        /// Creates a publisher that converts upstream failures with `transform`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Creates a publisher that converts upstream failures with `map`.
        @inlinable
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.init(upstream: upstream, transform: map)
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, transform: transform))
        }

        /// Only the failure changes: the upstream's subscription goes straight through.
        @usableFromInline
        struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let transform: (Upstream.Failure) -> Failure
            /// Derived from the downstream's: this forwarding struct has no identity of its own.
            @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

            @inlinable
            init(downstream: Downstream, transform: @escaping (Upstream.Failure) -> Failure) {
                self.downstream = downstream
                self.transform = transform
            }

            @usableFromInline var description: String { "MapError" }

            @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }

            @inlinable func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }

            @inlinable func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                downstream.receive(completion: completion.mapError(transform))
            }
        }
    }
}

extension Publisher {
    /// Converts any failure from the upstream publisher into a new error.
    @inlinable
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}

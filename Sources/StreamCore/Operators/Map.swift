extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a closure.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) -> Output

        @inlinable

        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        // `receive(subscriber:)`, not `subscribe`: the optimiser declines to specialise a
        // `subscribe` reached from another `subscribe` (it suspects endless type growth), which
        // would leave the whole chain unspecialised.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, transform: transform))
        }

        /// Map changes neither demand nor completion, so it hands the upstream's subscription to
        /// the downstream and only transforms values: no lock, no allocation.
        @usableFromInline
        struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let transform: (Upstream.Output) -> Output
            /// Derived from the downstream's: this forwarding struct has no identity of its own.
            @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

            @inlinable
            init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
                self.downstream = downstream
                self.transform = transform
            }

            @usableFromInline var description: String { "Map" }

            @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }

            @inlinable func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                downstream.receive(transform(input))
            }

            @inlinable func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided closure.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}

extension Publishers.Map {
    /// Fuses two maps into one.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map(upstream: upstream) { transform(first($0)) }
    }
}

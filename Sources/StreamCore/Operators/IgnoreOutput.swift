extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream's completion.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        public typealias Output = Never
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that ignores all upstream elements.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber))
        }

        /// Never delivers a value, so the downstream's demand is irrelevant: the upstream's
        /// subscription goes to the downstream (for cancel) and unlimited values are requested.
        @usableFromInline
        struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Never, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            /// Derived from the downstream's: this forwarding struct has no identity of its own.
            @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

            @inlinable init(downstream: Downstream) { self.downstream = downstream }

            @usableFromInline var description: String { "IgnoreOutput" }

            @inlinable func receive(subscription: Subscription) {
                downstream.receive(subscription: subscription)
                subscription.request(.unlimited)
            }

            @inlinable func receive(_ input: Upstream.Output) -> Subscribers.Demand { .none }

            @inlinable func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion state.
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

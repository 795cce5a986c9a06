extension Publishers {
    /// A publisher that appears to send a specified failure type; its upstream never fails.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that reports `Failure` while never failing.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber))
        }

        /// The same upstream with a different failure type.
        @inlinable
        public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType<Upstream, E>(upstream: upstream)
        }

        /// Changes neither demand nor values: hands the upstream's subscription downstream.
        @usableFromInline
        struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

            @inlinable init(downstream: Downstream) { self.downstream = downstream }

            @usableFromInline var description: String { "SetFailureType" }

            @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }

            @inlinable func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }

            @inlinable func receive(completion: Subscribers.Completion<Never>) {
                downstream.receive(completion: .finished)
            }
        }
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publisher where Failure == Never {
    /// Changes the failure type declared by the upstream publisher.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

extension Publishers {
    /// A publisher that republishes all elements that match a provided closure.
    public struct Filter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) -> Bool

        @inlinable

        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, isIncluded: isIncluded))
        }

        /// Passes the upstream's subscription through; a dropped value is replaced by asking the
        /// upstream for one more, so the downstream's demand is honoured exactly.
        @usableFromInline
        struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let isIncluded: (Upstream.Output) -> Bool
            /// Derived from the downstream's: this forwarding struct has no identity of its own.
            @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

            @inlinable
            init(downstream: Downstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
                self.downstream = downstream
                self.isIncluded = isIncluded
            }

            @usableFromInline var description: String { "Filter" }

            @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }

            @inlinable func receive(_ input: Output) -> Subscribers.Demand {
                isIncluded(input) ? downstream.receive(input) : .max(1)
            }

            @inlinable func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Republishes all elements that match a provided closure.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers.Filter {
    /// Fuses two filters into one.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }
}

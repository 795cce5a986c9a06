extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure to evaluate whether two elements are equivalent, for purposes of filtering.
        public let predicate: (Output, Output) -> Bool

        /// Creates a publisher that publishes only elements that don't match the previous one.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }

        /// The hot path, kept lock-free:
        /// - Like Filter, it changes neither completion nor the meaning of demand, so the
        ///   upstream's subscription goes straight to the downstream: `request` and `cancel`
        ///   never pass through here, and cancelling releases nothing of ours to clean up.
        /// - A dropped duplicate returns `.max(1)`, replacing the value the downstream asked for
        ///   but did not get, so its demand is honoured exactly.
        /// - `last` is the only mutable state. It is touched only in `receive(_:)` (and cleared in
        ///   `receive(completion:)`), and the Publisher contract makes those calls serial (never
        ///   concurrent, nothing after completion), so it needs no lock. It has to live in a class because the subscriber
        ///   is copied into the upstream.
        /// - Like Apple's, each element is compared with the previous element received, not the
        ///   previous one published (they differ only for a non-transitive predicate).
        @usableFromInline
        final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let predicate: (Output, Output) -> Bool
            @usableFromInline var last: Output?

            @inlinable
            init(downstream: Downstream, predicate: @escaping (Output, Output) -> Bool) {
                self.downstream = downstream
                self.predicate = predicate
            }

            @usableFromInline var description: String { "RemoveDuplicates" }

            @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }

            @inlinable func receive(_ input: Output) -> Subscribers.Demand {
                let previous = last
                last = input
                if let previous, predicate(previous, input) {
                    return .max(1)
                }
                return downstream.receive(input)
            }

            @inlinable func receive(completion: Subscribers.Completion<Failure>) {
                last = nil
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a
    /// provided closure.
    @inlinable
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element.
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

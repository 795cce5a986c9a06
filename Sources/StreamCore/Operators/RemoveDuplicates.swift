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
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, predicate: predicate))
        }

        /// The hot path, kept lock-free:
        /// - Like Filter, it changes neither completion nor the meaning of demand, so the
        ///   upstream's subscription goes straight to the downstream: `request` and `cancel`
        ///   never pass through here, and cancelling releases nothing of ours to clean up.
        /// - A dropped duplicate returns `.max(1)`, replacing the value the downstream asked for
        ///   but did not get, so its demand is honoured exactly.
        /// - The previous element is the only mutable state. It is touched only in `receive(_:)`,
        ///   and the Publisher contract makes those calls serial (never concurrent, nothing after
        ///   completion), so it needs no lock. It lives in a class because the subscriber is
        ///   copied into the upstream.
        /// - It is kept in a pointer plus a `hasLast` flag rather than an `Output?` property, and
        ///   the flag opts out of dynamic exclusivity checks: when this code runs unspecialized
        ///   (e.g. called through `sink`, which is not inlinable) an optional property costs a
        ///   generic-metadata lookup and two exclusivity checks per value, about 4x slower in our
        ///   measurements. Neither is needed: no access spans a call out (`last` is updated
        ///   before the downstream is called), so even a re-entrant upstream sees a
        ///   consistent state.
        /// - Like Apple's, each element is compared with the previous element received, not the
        ///   previous one published (they differ only for a non-transitive predicate).
        @usableFromInline
        final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let predicate: (Output, Output) -> Bool
            /// The previous element, initialised by the first one (see `hasLast`).
            @usableFromInline let last: UnsafeMutablePointer<Output>
            @usableFromInline @exclusivity(unchecked) var hasLast = false

            @inlinable
            init(downstream: Downstream, predicate: @escaping (Output, Output) -> Bool) {
                self.downstream = downstream
                self.predicate = predicate
                last = .allocate(capacity: 1)
            }

            deinit {
                if hasLast { last.deinitialize(count: 1) }
                last.deallocate()
            }

            @usableFromInline var description: String { "RemoveDuplicates" }

            @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }

            @inlinable func receive(_ input: Output) -> Subscribers.Demand {
                guard hasLast else {
                    last.initialize(to: input)
                    hasLast = true
                    return downstream.receive(input)
                }
                let duplicate = predicate(last.pointee, input)
                last.pointee = input
                return duplicate ? .max(1) : downstream.receive(input)
            }

            @inlinable func receive(completion: Subscribers.Completion<Failure>) {
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

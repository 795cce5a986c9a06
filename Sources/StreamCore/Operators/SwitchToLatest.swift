import Locking

extension Publishers {
    /// A publisher that flattens nested publishers: it republishes the values of the most recent
    /// publisher its upstream produced.
    ///
    /// A new inner publisher cancels the previous inner subscription at once, and values of a
    /// superseded inner are never delivered (each inner subscriber carries a generation number).
    /// Outstanding downstream demand carries over to the new inner. The upstream is asked for
    /// `.unlimited`; the stream finishes once the upstream and the current inner have both
    /// finished; any failure fails the whole and cancels the rest.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        public typealias Output = P.Output
        public typealias Failure = P.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that republishes the values of the latest inner publisher.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        // `receive(subscriber:)`, not `subscribe`: the optimiser declines to specialise a
        // `subscribe` reached from another `subscribe` (it suspects endless type growth), which
        // would leave the whole chain unspecialised.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Outer(downstream: subscriber))
        }
    }
}

extension Publishers.SwitchToLatest {
    /// Subscriber of the upstream and subscription of the downstream. Every field is guarded by
    /// `lock` (so none needs the dynamic exclusivity checks); the downstream is called only by
    /// the thread that set `delivering`.
    @usableFromInline
    final class Outer<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = P
        @usableFromInline let lock = Lock()
        @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
        @usableFromInline @exclusivity(unchecked) var outer = SubscriptionSlot()
        @usableFromInline @exclusivity(unchecked) var outerFinished = false
        @usableFromInline @exclusivity(unchecked) var terminated = false
        /// Identifies the current inner publisher; values of other generations are dropped.
        @usableFromInline @exclusivity(unchecked) var generation: UInt64 = 0
        @usableFromInline @exclusivity(unchecked) var inner = SubscriptionSlot()
        /// A current inner exists (subscribed or awaiting its subscription) and has not finished.
        @usableFromInline @exclusivity(unchecked) var innerActive = false
        /// Downstream demand not yet satisfied; the current inner has exactly this much requested.
        @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
        @usableFromInline @exclusivity(unchecked) var delivering = false
        /// Set when values or a completion wait for the delivering thread (rare).
        @usableFromInline @exclusivity(unchecked) var hasPending = false
        @exclusivity(unchecked) var pendingValues = FIFOQueue<Output>()
        @exclusivity(unchecked) var pendingCompletion: Subscribers.Completion<Failure>?

        @inlinable init(downstream: Downstream) { self.downstream = downstream }

        @usableFromInline var description: String { "SwitchToLatest" }

        @inlinable func receive(subscription: Subscription) {
            lock.lock()
            guard !outer.isSet, !outerFinished, !terminated else {
                lock.unlock()
                subscription.cancel()
                return
            }
            outer.set(subscription)
            let downstream = self.downstream
            lock.unlock()
            downstream?.receive(subscription: self)
            subscription.request(.unlimited)
        }

        @inlinable func receive(_ input: P) -> Subscribers.Demand {
            lock.lock()
            guard outer.isSet, !terminated else {
                lock.unlock()
                return .none
            }
            generation &+= 1
            let current = generation
            innerActive = true
            if hasPending { dropPendingValues() }
            if inner.isSet {
                let previous = inner.take()
                lock.unlock()
                previous.cancel()
            } else {
                lock.unlock()
            }
            input.receive(subscriber: InnerSubscriber(parent: self, generation: current))
            return .none
        }

        @inlinable func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard outer.isSet, !terminated else {
                lock.unlock()
                return
            }
            let finishedOuter = outer.take()
            outerFinished = true
            if case .finished = completion, innerActive {
                lock.unlock()
                _ = consume finishedOuter  // released after the unlock
                return
            }
            end(with: completion)
            _ = consume finishedOuter
        }

        @inlinable func receiveInner(subscription: Subscription, generation: UInt64) {
            lock.lock()
            guard generation == self.generation, !inner.isSet, innerActive, !terminated else {
                lock.unlock()
                subscription.cancel()
                return
            }
            inner.set(subscription)
            let demand = self.demand
            lock.unlock()
            if demand > 0 { subscription.request(demand) }
        }

        @inlinable func receiveInner(_ value: Output, generation: UInt64) -> Subscribers.Demand {
            lock.lock()
            guard generation == self.generation, !terminated, let downstream else {
                lock.unlock()
                return .none
            }
            guard !delivering else { return enqueue(value) }
            guard demand > 0 else {
                lock.unlock()
                return .none
            }
            demand -= 1
            delivering = true
            lock.unlock()
            let more = downstream.receive(value)
            lock.lock()
            var returned = Subscribers.Demand.none
            if more > 0, !terminated {
                demand += more
                guard generation == self.generation else { return forwardToCurrentInner(more) }
                returned = more
            }
            if hasPending {
                drainPending()
            } else {
                delivering = false
                lock.unlock()
            }
            return returned
        }

        @inlinable func receiveInner(completion: Subscribers.Completion<Failure>, generation: UInt64) {
            lock.lock()
            guard generation == self.generation, innerActive, !terminated else {
                lock.unlock()
                return
            }
            let finishedInner = inner.take()
            innerActive = false
            if case .finished = completion, !outerFinished {
                lock.unlock()
                _ = consume finishedInner  // released after the unlock
                return
            }
            end(with: completion)
        }

        @inlinable func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "demand must be positive")
            lock.lock()
            guard !terminated else {
                lock.unlock()
                return
            }
            self.demand += demand
            let inner = self.inner.subscription  // the no-op one when there is none
            if hasPending, !delivering {
                delivering = true
                drainPending()
            } else {
                lock.unlock()
            }
            inner.request(demand)
        }

        @inlinable func cancel() {
            lock.lock()
            let outer = self.outer.take(), inner = self.inner.take()
            terminated = true
            downstream = nil
            if hasPending { dropPendingValues() }
            lock.unlock()
            outer.cancel()
            inner.cancel()
        }
    }

    /// Subscribes to one inner publisher on behalf of `parent`, tagged with its generation. A
    /// struct, so that switching to a new inner publisher allocates nothing here.
    @usableFromInline
    struct InnerSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline let parent: Outer<Downstream>
        @usableFromInline let generation: UInt64

        /// Derived from the parent's: the parent's state tells generations apart.
        @inlinable var combineIdentifier: CombineIdentifier { parent.combineIdentifier }

        @inlinable init(parent: Outer<Downstream>, generation: UInt64) {
            self.parent = parent
            self.generation = generation
        }

        @usableFromInline var description: String { "SwitchToLatest" }

        @inlinable func receive(subscription: Subscription) {
            parent.receiveInner(subscription: subscription, generation: generation)
        }

        @inlinable func receive(_ input: Output) -> Subscribers.Demand {
            parent.receiveInner(input, generation: generation)
        }

        @inlinable func receive(completion: Subscribers.Completion<Failure>) {
            parent.receiveInner(completion: completion, generation: generation)
        }
    }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes the values of the most recent publisher this publisher produced.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> { .init(upstream: self) }
}

extension Publisher where Failure == Never, Output: Publisher {
    /// Republishes the values of the most recent inner publisher, adopting its failure type.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        .init(upstream: setFailureType(to: Output.Failure.self))
    }
}

extension Publisher where Failure == Never, Output: Publisher, Output.Failure == Never {
    /// Republishes the values of the most recent inner publisher; nothing can fail.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> { .init(upstream: self) }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes the values of the most recent inner publisher, which never fails.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<
        Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    > {
        .init(upstream: map { Publishers.SetFailureType<Output, Failure>(upstream: $0) })
    }
}

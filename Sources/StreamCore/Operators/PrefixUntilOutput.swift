extension Publishers {
    /// A publisher that republishes elements until another publisher emits an element, then
    /// finishes.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// Another publisher, whose first output causes this publisher to finish.
        public let other: Other

        /// Creates a publisher that republishes `upstream` until `other` emits an element.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber)
            subscriber.receive(subscription: inner)
            other.subscribe(inner.trigger)
            upstream.subscribe(inner)
        }

        /// Subscribes to the trigger (asking it for one element), then to the upstream, to which
        /// the downstream's demand goes unchanged. The trigger's first element cancels the
        /// upstream and finishes; the trigger completing without one changes nothing.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private let lock = Lock()
            private var downstream: Downstream?
            private var upstream: Subscription?
            private var triggerSubscription: Subscription?
            private var pending = Subscribers.Demand.none
            private var triggerDone = false

            init(downstream: Downstream) { self.downstream = downstream }

            var description: String { "PrefixUntilOutput" }

            /// The subscriber to `other`.
            var trigger: Trigger<Downstream> { Trigger(inner: self) }

            func receive(subscription: Subscription) {
                lock.lock()
                guard upstream == nil, downstream != nil else {
                    lock.unlock()
                    subscription.cancel()
                    return
                }
                upstream = subscription
                let demand = pending
                pending = .none
                lock.unlock()
                if demand > 0 { subscription.request(demand) }
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                lock.lock()
                guard let downstream, upstream != nil else {
                    lock.unlock()
                    return .none
                }
                lock.unlock()
                return downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                lock.lock()
                let downstream = self.downstream
                let trigger = triggerSubscription
                self.downstream = nil
                upstream = nil
                triggerSubscription = nil
                triggerDone = true
                lock.unlock()
                trigger?.cancel()
                downstream?.receive(completion: completion)
            }

            func triggerReceive(subscription: Subscription) {
                lock.lock()
                guard triggerSubscription == nil, !triggerDone, downstream != nil else {
                    lock.unlock()
                    subscription.cancel()
                    return
                }
                triggerSubscription = subscription
                lock.unlock()
                subscription.request(.max(1))
            }

            /// The trigger emitted: end the stream.
            func triggerFired() {
                lock.lock()
                guard !triggerDone else {
                    lock.unlock()
                    return
                }
                triggerDone = true
                let upstream = self.upstream
                let trigger = triggerSubscription
                let downstream = self.downstream
                self.upstream = nil
                triggerSubscription = nil
                self.downstream = nil
                lock.unlock()
                upstream?.cancel()
                trigger?.cancel()
                downstream?.receive(completion: .finished)
            }

            /// The trigger completed without emitting: it can no longer end the stream.
            func triggerCompleted() {
                lock.lock()
                triggerDone = true
                triggerSubscription = nil
                lock.unlock()
            }

            func request(_ demand: Subscribers.Demand) {
                precondition(demand > 0, "demand must be positive")
                lock.lock()
                guard downstream != nil else {
                    lock.unlock()
                    return
                }
                guard let upstream else {
                    pending += demand
                    lock.unlock()
                    return
                }
                lock.unlock()
                upstream.request(demand)
            }

            func cancel() {
                lock.lock()
                let upstream = self.upstream
                let trigger = triggerSubscription
                let downstream = self.downstream
                self.upstream = nil
                triggerSubscription = nil
                self.downstream = nil
                triggerDone = true
                lock.unlock()
                upstream?.cancel()
                trigger?.cancel()
                _ = downstream  // released here, outside the lock
            }
        }

        /// Relays the trigger publisher's events to `Inner`; shares its combine identifier.
        private struct Trigger<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
            typealias Input = Other.Output
            typealias Failure = Other.Failure

            let inner: Inner<Downstream>
            var combineIdentifier: CombineIdentifier { inner.combineIdentifier }
            var description: String { "PrefixUntilOutput" }

            func receive(subscription: Subscription) { inner.triggerReceive(subscription: subscription) }

            func receive(_ input: Other.Output) -> Subscribers.Demand {
                inner.triggerFired()
                return .none
            }

            func receive(completion: Subscribers.Completion<Other.Failure>) { inner.triggerCompleted() }
        }
    }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
    /// Republishes elements until another publisher emits an element; then cancels the
    /// upstream and finishes.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

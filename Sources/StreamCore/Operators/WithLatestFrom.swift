import Locking

extension Publishers {
    /// A publisher that, each time its upstream emits, combines that element with the latest
    /// element of `other` (not part of Apple's Combine; the classic Rx operator).
    ///
    /// Upstream elements that arrive before `other` has produced anything are dropped (and
    /// replaced by a new request upstream, so demand is not lost). `other` is asked for
    /// `.unlimited` and subscribed first; its finishing changes nothing (its last value stays
    /// in use). The stream finishes with the upstream (cancelling `other`); any failure fails it.
    public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Failure = Upstream.Failure

        /// The publisher whose elements drive the output.
        public let upstream: Upstream
        /// The publisher whose latest element is sampled.
        public let other: Other
        /// Combines an upstream element with the latest element of `other`.
        public let resultSelector: (Upstream.Output, Other.Output) -> Output

        /// Creates a publisher that samples `other` whenever `upstream` emits.
        public init(
            upstream: Upstream,
            other: Other,
            resultSelector: @escaping (Upstream.Output, Other.Output) -> Output
        ) {
            self.upstream = upstream
            self.other = other
            self.resultSelector = resultSelector
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, resultSelector: resultSelector)
            other.subscribe(OtherSide(inner: inner))
            upstream.subscribe(inner)
        }

        /// Subscribes to the upstream and is the downstream's subscription. Every mutable field
        /// is guarded by `lock`; the downstream is called only by the thread that set
        /// `delivering` (an upstream value), or by whoever ends the stream when none is.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Upstream.Output

            private let lock = Lock()
            private let resultSelector: (Upstream.Output, Other.Output) -> Output
            private var downstream: Downstream?
            private var upstream: Subscription?
            private var otherSubscription: Subscription?
            private var latest: Other.Output?
            private var terminated = false
            private var delivering = false
            /// The downstream has received its subscription.
            private var subscribed = false
            private var pendingCompletion: Subscribers.Completion<Failure>?

            init(downstream: Downstream, resultSelector: @escaping (Upstream.Output, Other.Output) -> Output) {
                self.downstream = downstream
                self.resultSelector = resultSelector
            }

            var description: String { "WithLatestFrom" }

            func receive(subscription: Subscription) {
                lock.lock()
                if !subscribed, let early = pendingCompletion, let downstream {
                    // `other` failed before the upstream subscribed.
                    subscribed = true
                    pendingCompletion = nil
                    self.downstream = nil
                    lock.unlock()
                    subscription.cancel()
                    downstream.receive(subscription: self)
                    downstream.receive(completion: early)
                    return
                }
                guard upstream == nil, !terminated, let downstream else {
                    lock.unlock()
                    subscription.cancel()
                    return
                }
                upstream = subscription
                subscribed = true
                lock.unlock()
                downstream.receive(subscription: self)
            }

            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                lock.lock()
                guard !terminated, let downstream else {
                    lock.unlock()
                    return .none
                }
                guard let latest else {
                    lock.unlock()
                    return .max(1)
                }
                delivering = true
                lock.unlock()
                let more = downstream.receive(resultSelector(input, latest))
                lock.lock()
                delivering = false
                guard let completion = pendingCompletion else {
                    lock.unlock()
                    return more
                }
                pendingCompletion = nil
                self.downstream = nil
                lock.unlock()
                downstream.receive(completion: completion)
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                end(with: completion)
            }

            func receiveOther(subscription: Subscription) {
                lock.lock()
                guard otherSubscription == nil, !terminated else {
                    lock.unlock()
                    subscription.cancel()
                    return
                }
                otherSubscription = subscription
                lock.unlock()
                subscription.request(.unlimited)
            }

            func receiveOther(_ input: Other.Output) {
                lock.lock()
                if !terminated { latest = input }
                lock.unlock()
            }

            func receiveOther(completion: Subscribers.Completion<Failure>) {
                lock.lock()
                otherSubscription = nil
                lock.unlock()
                if case .failure = completion { end(with: completion) }
            }

            /// Ends the stream: cancels both inputs, then tells the downstream (or leaves that to
            /// the thread delivering a value).
            private func end(with completion: Subscribers.Completion<Failure>) {
                lock.lock()
                guard !terminated else {
                    lock.unlock()
                    return
                }
                terminated = true
                let subscriptions = [upstream, otherSubscription]
                upstream = nil
                otherSubscription = nil
                latest = nil
                var downstream: Downstream?
                if delivering || !subscribed {
                    pendingCompletion = completion
                } else {
                    downstream = self.downstream
                    self.downstream = nil
                }
                lock.unlock()
                for subscription in subscriptions { subscription?.cancel() }
                downstream?.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                precondition(demand > 0, "demand must be positive")
                lock.lock()
                let upstream = self.upstream
                lock.unlock()
                upstream?.request(demand)
            }

            func cancel() {
                lock.lock()
                terminated = true
                let subscriptions = [upstream, otherSubscription]
                upstream = nil
                otherSubscription = nil
                downstream = nil
                latest = nil
                lock.unlock()
                for subscription in subscriptions { subscription?.cancel() }
            }
        }

        /// Relays `other`'s events to the inner object.
        private struct OtherSide<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            let inner: Inner<Downstream>
            var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }
            var description: String { "WithLatestFrom" }

            func receive(subscription: Subscription) { inner.receiveOther(subscription: subscription) }

            func receive(_ input: Other.Output) -> Subscribers.Demand {
                inner.receiveOther(input)
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) { inner.receiveOther(completion: completion) }
        }
    }
}

extension Publisher {
    /// Combines each element with the latest element of `other`, through `resultSelector`;
    /// elements arriving before `other` produced anything are dropped.
    public func withLatestFrom<Other: Publisher, Result>(
        _ other: Other,
        resultSelector: @escaping (Output, Other.Output) -> Result
    ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: resultSelector)
    }

    /// Pairs each element with the latest element of `other`; elements arriving before `other`
    /// produced anything are dropped.
    public func withLatestFrom<Other: Publisher>(
        _ other: Other
    ) -> Publishers.WithLatestFrom<Self, Other, (Output, Other.Output)> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other) { ($0, $1) }
    }
}

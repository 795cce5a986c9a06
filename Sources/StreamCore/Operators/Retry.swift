import Locking

extension Publishers {
    /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
    public struct Retry<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of retry attempts to perform; `nil` retries without limit.
        public let retries: Int?

        /// Creates a publisher that re-subscribes to a failed `upstream` up to `retries` times
        /// (`nil`, or a negative number, retries without limit).
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(upstream: upstream, downstream: subscriber, retries: retries))
        }

        /// Subscribes to the upstream again on each failure until the retries run out. The
        /// downstream sees a single subscription (this object); `outstanding` counts what it
        /// asked for and has not received, and each new upstream subscription is asked for that.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private let lock = Lock()
            private let upstream: Upstream
            private var downstream: Downstream?
            private var upstreamSubscription: Subscription?
            private var downstreamSubscribed = false
            private var outstanding = Subscribers.Demand.none
            /// Retries left; `nil` is unlimited.
            private var remaining: Int?
            /// Set while `upstream.subscribe` runs, so that a synchronous failure inside it
            /// (e.g. `Fail`) loops here instead of recursing.
            private var subscribing = false
            private var resubscribeRequested = false

            init(upstream: Upstream, downstream: Downstream, retries: Int?) {
                self.upstream = upstream
                self.downstream = downstream
                self.remaining = retries.flatMap { $0 < 0 ? nil : $0 }
            }

            var description: String { "Retry" }

            func receive(subscription: Subscription) {
                lock.lock()
                guard let downstream, upstreamSubscription == nil else {
                    lock.unlock()
                    subscription.cancel()
                    return
                }
                upstreamSubscription = subscription
                let first = !downstreamSubscribed
                downstreamSubscribed = true
                let demand = outstanding
                lock.unlock()
                if first {
                    downstream.receive(subscription: self)
                } else if demand > 0 {
                    subscription.request(demand)
                }
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                lock.lock()
                guard let downstream, upstreamSubscription != nil else {
                    lock.unlock()
                    return .none
                }
                outstanding -= 1
                lock.unlock()
                let more = downstream.receive(input)
                if more > 0 {
                    lock.withLock { outstanding += more }
                }
                return more
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                lock.lock()
                guard let downstream, upstreamSubscription != nil else {
                    lock.unlock()
                    return
                }
                upstreamSubscription = nil
                if case .failure = completion, remaining.map({ $0 > 0 }) ?? true {
                    remaining = remaining.map { $0 - 1 }
                    resubscribeRequested = true
                    guard !subscribing else {
                        lock.unlock()
                        return
                    }
                    subscribing = true
                    while resubscribeRequested, self.downstream != nil {
                        resubscribeRequested = false
                        lock.unlock()
                        upstream.subscribe(self)
                        lock.lock()
                    }
                    subscribing = false
                    lock.unlock()
                    return
                }
                self.downstream = nil
                lock.unlock()
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                precondition(demand > 0, "demand must be positive")
                lock.lock()
                guard downstream != nil else {
                    lock.unlock()
                    return
                }
                outstanding += demand
                let subscription = upstreamSubscription
                lock.unlock()
                subscription?.request(demand)
            }

            func cancel() {
                lock.lock()
                let subscription = upstreamSubscription
                upstreamSubscription = nil
                downstream = nil
                lock.unlock()
                subscription?.cancel()
            }
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Attempts to recreate a failed subscription with the upstream publisher up to the number
    /// of times you specify.
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

extension Publishers {
    /// A publisher that omits a specified number of elements before republishing subsequent
    /// elements.
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that drops the first `count` elements of `upstream`.
        public init(upstream: Upstream, count: Int) {
            precondition(count >= 0, "count must not be negative")
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, count: count)
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner)
        }

        /// Hands itself to the downstream first, then asks the upstream for the downstream's
        /// demand plus the `count` elements it will drop; later requests pass straight through.
        private final class Inner<Downstream: Subscriber>: PendingDemandLink<Downstream>, Subscriber, Subscription,
            CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private var remainingToDrop: Int

            init(downstream: Downstream, count: Int) {
                remainingToDrop = count
                super.init(downstream: downstream)
            }

            var description: String { "Drop" }

            func receive(subscription: Subscription) {
                connect(subscription, extra: lock.withLock { remainingToDrop })
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                lock.lock()
                guard let downstream, upstream != nil else {
                    lock.unlock()
                    return .none
                }
                if remainingToDrop > 0 {
                    remainingToDrop -= 1
                    lock.unlock()
                    return .none
                }
                lock.unlock()
                return downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                lock.lock()
                let downstream = self.downstream
                self.downstream = nil
                upstream = nil
                lock.unlock()
                downstream?.receive(completion: completion)
            }

            func cancel() {
                lock.lock()
                let upstream = self.upstream
                let downstream = self.downstream
                self.upstream = nil
                self.downstream = nil
                lock.unlock()
                upstream?.cancel()
                _ = downstream  // released here, outside the lock
            }
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

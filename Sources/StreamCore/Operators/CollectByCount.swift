extension Publishers {
    /// A publisher that buffers a maximum number of items and emits them as arrays.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of received elements to buffer before publishing.
        public let count: Int

        /// Creates a publisher that emits `upstream`'s elements in arrays of `count`.
        public init(upstream: Upstream, count: Int) {
            precondition(count > 0, "count must be positive")
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, count: count))
        }

        /// Each array the downstream asks for is `count` elements asked of the upstream. A
        /// partial array is emitted when the upstream finishes (the downstream is then still owed
        /// at least one) and discarded when it fails.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private enum State {
                case awaitingSubscription
                case connected(Subscription)
                case done
            }

            private let lock = Lock()
            private let count: Int
            private var state = State.awaitingSubscription
            private var downstream: Downstream?
            private var buffer: [Upstream.Output] = []

            init(downstream: Downstream, count: Int) {
                self.downstream = downstream
                self.count = count
                buffer.reserveCapacity(count)
            }

            var description: String { "CollectByCount" }

            func receive(subscription: Subscription) {
                lock.lock()
                guard case .awaitingSubscription = state, let downstream else {
                    lock.unlock()
                    subscription.cancel()
                    return
                }
                state = .connected(subscription)
                lock.unlock()
                downstream.receive(subscription: self)
            }

            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                lock.lock()
                guard case .connected = state, let downstream else {
                    lock.unlock()
                    return .none
                }
                buffer.append(input)
                guard buffer.count == count else {
                    lock.unlock()
                    return .none
                }
                let full = buffer
                buffer = []
                buffer.reserveCapacity(count)
                lock.unlock()
                return downstream.receive(full) * count
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                lock.lock()
                guard case .connected = state, let downstream else {
                    lock.unlock()
                    return
                }
                state = .done
                self.downstream = nil
                let rest = buffer
                buffer = []
                lock.unlock()
                if case .finished = completion, !rest.isEmpty {
                    _ = downstream.receive(rest)
                }
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                precondition(demand > 0, "demand must be positive")
                lock.lock()
                guard case .connected(let subscription) = state else {
                    lock.unlock()
                    return
                }
                lock.unlock()
                subscription.request(demand * count)
            }

            func cancel() {
                lock.lock()
                let previous = state
                let downstream = self.downstream
                state = .done
                self.downstream = nil
                let dropped = buffer
                buffer = []
                lock.unlock()
                if case .connected(let subscription) = previous { subscription.cancel() }
                _ = (downstream, dropped)  // released here, outside the lock
            }
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Collects up to the specified number of elements, and then emits a single array of the
    /// collection. Leftover elements are emitted when the upstream finishes.
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

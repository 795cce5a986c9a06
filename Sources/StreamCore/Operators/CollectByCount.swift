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
        private final class Inner<Downstream: Subscriber>: UpstreamLink<Downstream>, Subscriber, Subscription,
            CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private let count: Int
            private var buffer: [Upstream.Output] = []

            init(downstream: Downstream, count: Int) {
                self.count = count
                super.init(downstream: downstream)
                buffer.reserveCapacity(count)
            }

            var description: String { "CollectByCount" }

            func receive(subscription: Subscription) { connect(subscription)?.receive(subscription: self) }

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
                var rest: [Upstream.Output] = []
                guard let (_, downstream) = complete(whileLocked: { swap(&rest, &buffer) }) else { return }
                if case .finished = completion, !rest.isEmpty {
                    _ = downstream.receive(rest)
                }
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                precondition(demand > 0, "demand must be positive")
                forward(demand * count)
            }

            func cancel() {
                var dropped: [Upstream.Output] = []
                disconnect { swap(&dropped, &buffer) }
                _ = dropped  // released here, outside the lock
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

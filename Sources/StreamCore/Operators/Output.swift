extension Publishers {
    /// A publisher that publishes elements specified by a range in the sequence of published
    /// elements (`prefix(_:)`, `output(at:)`, `output(in:)`).
    public struct Output<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// The range of elements to publish.
        public let range: CountableRange<Int>

        /// Creates a publisher that publishes the elements of `upstream` at the indices in `range`.
        public init(upstream: Upstream, range: CountableRange<Int>) {
            precondition(range.lowerBound >= 0, "lower bound in range must not be negative")
            self.upstream = upstream
            self.range = range
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, range: range))
        }

        /// Passes demand through; each element before the range is replaced by a request for one
        /// more. Once the range's last element is delivered, it cancels the upstream and finishes.
        private final class Inner<Downstream: Subscriber>: UpstreamLink<Downstream>, Subscriber, Subscription,
            CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private var remainingBeforeStart: Int
            private var remainingInRange: Int

            init(downstream: Downstream, range: CountableRange<Int>) {
                remainingBeforeStart = range.lowerBound
                remainingInRange = range.count
                super.init(downstream: downstream)
            }

            var description: String { "Output" }

            func receive(subscription: Subscription) { connect(subscription)?.receive(subscription: self) }

            func receive(_ input: Output) -> Subscribers.Demand {
                lock.lock()
                guard case .connected = state, let downstream else {
                    lock.unlock()
                    return .none
                }
                if remainingBeforeStart > 0 {
                    remainingBeforeStart -= 1
                    lock.unlock()
                    return .max(1)
                }
                guard remainingInRange > 0 else {
                    // Only reachable with an empty range: end at the first element.
                    lock.unlock()
                    finish()
                    return .none
                }
                remainingInRange -= 1
                let isLast = remainingInRange == 0
                lock.unlock()
                let demand = downstream.receive(input)
                guard !isLast else {
                    finish()
                    return .none
                }
                return demand
            }

            /// Cancels the upstream and finishes the downstream, once.
            private func finish() {
                guard let (subscription, downstream) = complete() else { return }
                subscription.cancel()
                downstream.receive(completion: .finished)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                complete()?.downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                precondition(demand > 0, "demand must be positive")
                forward(demand)
            }

            func cancel() { disconnect() }
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Republishes elements up to the specified maximum count, then finishes.
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        precondition(maxLength >= 0, "maxLength must not be negative")
        return output(in: 0..<maxLength)
    }

    /// Publishes a specific element, indicated by its index in the sequence of published
    /// elements, then finishes.
    public func output(at index: Int) -> Publishers.Output<Self> {
        precondition(index >= 0 && index < Int.max, "index must be in 0..<Int.max")
        return output(in: index..<(index + 1))
    }

    /// Publishes elements specified by their range in the sequence of published elements
    /// (zero-based), then finishes.
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }
}

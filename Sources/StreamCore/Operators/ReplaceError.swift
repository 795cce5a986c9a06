extension Publishers {
    /// A publisher that replaces any error from the upstream publisher with a provided element,
    /// then finishes.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces an upstream error with `output`.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(Inner(downstream: subscriber, output: output))
        }

        /// Tracks the downstream's outstanding demand so that the replacement value is sent only
        /// once the downstream has asked for it: at once if demand is left when the error
        /// arrives, otherwise on the next request.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Never {
            private enum State {
                case awaitingSubscription
                case connected(Subscription)
                /// The upstream failed with no demand outstanding; the replacement waits.
                case awaitingDemand
                case done
            }

            private let lock = Lock()
            private var state = State.awaitingSubscription
            private var downstream: Downstream?
            private var outstanding = Subscribers.Demand.none
            private let output: Output

            init(downstream: Downstream, output: Output) {
                self.downstream = downstream
                self.output = output
            }

            var description: String { "ReplaceError" }

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

            func receive(_ input: Output) -> Subscribers.Demand {
                lock.lock()
                guard case .connected = state, let downstream else {
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

            func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                lock.lock()
                guard case .connected = state, let downstream else {
                    lock.unlock()
                    return
                }
                if case .failure = completion, outstanding == .none {
                    state = .awaitingDemand
                    lock.unlock()
                    return
                }
                state = .done
                self.downstream = nil
                lock.unlock()
                if case .failure = completion {
                    _ = downstream.receive(output)
                }
                downstream.receive(completion: .finished)
            }

            func request(_ demand: Subscribers.Demand) {
                precondition(demand > 0, "demand must be positive")
                lock.lock()
                switch state {
                case .connected(let subscription):
                    outstanding += demand
                    lock.unlock()
                    subscription.request(demand)
                case .awaitingDemand:
                    let downstream = self.downstream
                    state = .done
                    self.downstream = nil
                    lock.unlock()
                    _ = downstream?.receive(output)
                    downstream?.receive(completion: .finished)
                case .awaitingSubscription, .done:
                    lock.unlock()
                }
            }

            func cancel() {
                lock.lock()
                let previous = state
                state = .done
                downstream = nil
                lock.unlock()
                if case .connected(let subscription) = previous {
                    subscription.cancel()
                }
            }
        }
    }
}

extension Publisher {
    /// Replaces any error in the stream with the provided element, then finishes.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

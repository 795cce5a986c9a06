extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering any elements.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that emits `output` if `upstream` finishes without a value.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, output: output))
        }

        /// Passes demand through. If the upstream finishes without a value, every request the
        /// downstream made is still unfulfilled, so the replacement can go out as soon as the
        /// downstream has asked for anything. (Apple's requests `.unlimited` upstream as well;
        /// we don't, so the downstream never receives more than it asked for.)
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private enum State {
                case awaitingSubscription
                case connected(Subscription)
                /// The upstream finished empty before the downstream asked for anything.
                case awaitingDemand
                case done
            }

            private let lock = Lock()
            private var state = State.awaitingSubscription
            private var downstream: Downstream?
            private var receivedValue = false
            private var requested = false
            private let output: Output

            init(downstream: Downstream, output: Output) {
                self.downstream = downstream
                self.output = output
            }

            var description: String { "ReplaceEmpty" }

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
                receivedValue = true
                lock.unlock()
                return downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                lock.lock()
                guard case .connected = state, let downstream else {
                    lock.unlock()
                    return
                }
                var replace = false
                if case .finished = completion { replace = !receivedValue }
                if replace && !requested {
                    state = .awaitingDemand
                    lock.unlock()
                    return
                }
                state = .done
                self.downstream = nil
                lock.unlock()
                if replace {
                    _ = downstream.receive(output)
                }
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                precondition(demand > 0, "demand must be positive")
                lock.lock()
                requested = true
                switch state {
                case .connected(let subscription):
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
    /// Replaces an empty stream with the provided element.
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

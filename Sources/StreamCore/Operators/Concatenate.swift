import Locking

extension Publishers {
    /// A publisher that emits all of one publisher's elements before those from another
    /// publisher.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
        public typealias Output = Suffix.Output
        public typealias Failure = Suffix.Failure

        /// The publisher to republish, in its entirety, before republishing elements from
        /// `suffix`.
        public let prefix: Prefix
        /// The publisher to republish only after `prefix` finishes.
        public let suffix: Suffix

        /// Creates a publisher that republishes `prefix`, then `suffix`.
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, suffix: suffix)
            prefix.subscribe(Side(inner: inner, isPrefix: true))
        }

        /// Counts the downstream's outstanding demand, so that the suffix, subscribed only once
        /// the prefix finishes, is asked for exactly what the prefix did not deliver.
        private final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private enum Phase {
                case prefix
                case suffix
                case done
            }

            private let lock = Lock()
            private var phase = Phase.prefix
            private var downstream: Downstream?
            private var suffix: Suffix?
            /// The subscription of whichever publisher is current.
            private var current: Subscription?
            /// Requested by the downstream and not yet delivered.
            private var demand = Subscribers.Demand.none

            init(downstream: Downstream, suffix: Suffix) {
                self.downstream = downstream
                self.suffix = suffix
            }

            var description: String { "Concatenate" }

            func receive(subscription: Subscription, isPrefix: Bool) {
                lock.lock()
                guard phase == (isPrefix ? .prefix : .suffix), current == nil, let downstream else {
                    lock.unlock()
                    subscription.cancel()
                    return
                }
                current = subscription
                let owed = demand
                lock.unlock()
                if isPrefix {
                    downstream.receive(subscription: self)
                } else if owed > 0 {
                    subscription.request(owed)
                }
            }

            func receive(_ input: Output, isPrefix: Bool) -> Subscribers.Demand {
                lock.lock()
                guard phase == (isPrefix ? .prefix : .suffix), let downstream else {
                    lock.unlock()
                    return .none
                }
                demand -= 1
                lock.unlock()
                let more = downstream.receive(input)
                if more > 0 {
                    lock.lock()
                    demand += more
                    lock.unlock()
                }
                return more
            }

            func receive(completion: Subscribers.Completion<Failure>, isPrefix: Bool) {
                lock.lock()
                guard phase == (isPrefix ? .prefix : .suffix), let downstream else {
                    lock.unlock()
                    return
                }
                current = nil
                if isPrefix, case .finished = completion, let suffix {
                    phase = .suffix
                    self.suffix = nil
                    lock.unlock()
                    suffix.subscribe(Side(inner: self, isPrefix: false))
                    return
                }
                phase = .done
                self.downstream = nil
                suffix = nil
                lock.unlock()
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                precondition(demand > 0, "demand must be positive")
                lock.lock()
                guard phase != .done else {
                    lock.unlock()
                    return
                }
                self.demand += demand
                let current = self.current
                lock.unlock()
                current?.request(demand)
            }

            func cancel() {
                lock.lock()
                let current = self.current
                let downstream = self.downstream
                let suffix = self.suffix
                phase = .done
                self.current = nil
                self.downstream = nil
                self.suffix = nil
                lock.unlock()
                current?.cancel()
                _ = (downstream, suffix)  // released here, outside the lock
            }
        }

        /// The subscriber to the prefix or to the suffix, relaying to `Inner`.
        private struct Side<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Output

            let inner: Inner<Downstream>
            let isPrefix: Bool
            let combineIdentifier = CombineIdentifier()
            var description: String { "Concatenate" }

            func receive(subscription: Subscription) { inner.receive(subscription: subscription, isPrefix: isPrefix) }

            func receive(_ input: Output) -> Subscribers.Demand { inner.receive(input, isPrefix: isPrefix) }

            func receive(completion: Subscribers.Completion<Failure>) {
                inner.receive(completion: completion, isPrefix: isPrefix)
            }
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publisher {
    /// Appends a publisher's output with the specified elements.
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends a publisher's output with the elements of a sequence.
    public func append<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where S.Element == Output {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends the output of a publisher, subscribed to once this one finishes.
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }

    /// Prefixes a publisher's output with the specified elements.
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes a publisher's output with the elements of a sequence.
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where S.Element == Output {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes this publisher's output with the output of another, subscribing to this one
    /// once that one finishes.
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }
}

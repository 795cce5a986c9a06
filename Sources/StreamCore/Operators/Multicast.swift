import Locking

extension Publishers {
    /// A connectable publisher that uses a subject to deliver elements to multiple subscribers.
    ///
    /// Subscribers attach to the subject (created lazily, once, by `createSubject`); nothing is
    /// requested from the upstream until `connect()` subscribes the subject to it. Cancelling the
    /// connection cancels the upstream; the subscribers stay attached to the subject.
    ///
    /// Not `Sendable` (like Apple's): it stores the upstream and the subject factory as given.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Output == SubjectType.Output, Upstream.Failure == SubjectType.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that creates the subject, called on first use.
        public let createSubject: () -> SubjectType

        private let lock = Lock()
        private var lazySubject: SubjectType?

        /// Creates a multicast publisher whose subject is made by `createSubject` on first use.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// The subject, created on first use. `createSubject` runs outside the lock; if two first
        /// subscribers race, the subject stored first wins and the other one is discarded.
        private var subject: SubjectType {
            if let existing = lock.withLock({ lazySubject }) { return existing }
            let created = createSubject()
            return lock.withLock {
                if let lazySubject { return lazySubject }
                lazySubject = created
                return created
            }
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subject.subscribe(Inner(downstream: subscriber))
        }

        /// Subscribes the subject to the upstream; cancel the result to cancel the upstream.
        public func connect() -> Cancellable {
            upstream.subscribe(subject)
        }

        /// One downstream's attachment to the subject. Relays the subject's subscription as
        /// itself, so the downstream sees "Multicast" and extra demand returned from
        /// `receive(_:)` goes to the subject through `request(_:)`, as in Apple's Combine.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Output

            private enum State {
                case awaitingSubscription(Downstream)
                case subscribed(Downstream, Subscription)
                case terminal
            }

            private let lock = Lock()
            private var state: State

            init(downstream: Downstream) { state = .awaitingSubscription(downstream) }

            var description: String { "Multicast" }

            func receive(subscription: Subscription) {
                lock.lock()
                guard case .awaitingSubscription(let downstream) = state else {
                    lock.unlock()
                    subscription.cancel()
                    return
                }
                state = .subscribed(downstream, subscription)
                lock.unlock()
                downstream.receive(subscription: self)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                lock.lock()
                guard case .subscribed(let downstream, let subscription) = state else {
                    lock.unlock()
                    return .none
                }
                lock.unlock()
                let more = downstream.receive(input)
                if more > 0 { subscription.request(more) }
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                lock.lock()
                guard case .subscribed(let downstream, _) = state else {
                    lock.unlock()
                    return
                }
                state = .terminal
                lock.unlock()
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                lock.lock()
                guard case .subscribed(_, let subscription) = state else {
                    lock.unlock()
                    return
                }
                lock.unlock()
                subscription.request(demand)
            }

            func cancel() {
                lock.lock()
                guard case .subscribed(_, let subscription) = state else {
                    lock.unlock()
                    return
                }
                state = .terminal
                lock.unlock()
                subscription.cancel()
            }
        }
    }
}

extension Publisher {
    /// Shares this publisher through a subject made by `createSubject` when the first subscriber
    /// attaches; values flow only after `connect()`.
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Shares this publisher through the given subject; values flow only after `connect()`.
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self) { subject }
    }
}

import Locking

extension Publishers {
    /// A publisher that performs the specified closures when publisher events occur.
    ///
    /// As Apple's: each closure runs before the event is passed on. `receiveCompletion` runs
    /// at most once, and `receiveCancel` runs on the first downstream cancel only; after either
    /// a completion or a cancel no closure runs again. `receiveRequest` sees both the
    /// downstream's requests and the non-zero demand it returns from `receive(_:)`.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// Runs when the publisher receives the subscription from the upstream publisher.
        public var receiveSubscription: ((Subscription) -> Void)?
        /// Runs when the publisher receives a value from the upstream publisher.
        public var receiveOutput: ((Upstream.Output) -> Void)?
        /// Runs when the publisher receives the completion from the upstream publisher.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        /// Runs when the downstream receiver cancels publishing.
        public var receiveCancel: (() -> Void)?
        /// Runs when the publisher receives a request for more elements.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates a publisher that runs the given closures on the upstream's events.
        public init(
            upstream: Upstream,
            receiveSubscription: ((Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)?
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let callbacks = Callbacks(
                receiveSubscription: receiveSubscription,
                receiveOutput: receiveOutput,
                receiveCompletion: receiveCompletion,
                receiveCancel: receiveCancel,
                receiveRequest: receiveRequest
            )
            upstream.subscribe(Inner(events: callbacks, downstream: subscriber))
        }

        /// The closures alone (not the upstream), so a subscription does not retain its publisher.
        private struct Callbacks {
            let receiveSubscription: ((Subscription) -> Void)?
            let receiveOutput: ((Upstream.Output) -> Void)?
            let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
            let receiveCancel: (() -> Void)?
            let receiveRequest: ((Subscribers.Demand) -> Void)?
        }

        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Output

            private enum State {
                case awaitingSubscription
                case subscribed(Subscription)
                case terminal
            }

            private let lock = Lock()
            private var state = State.awaitingSubscription
            /// The user's closures; dropped (set to nil) on completion or cancel.
            private var events: Callbacks?
            private let downstream: Downstream

            init(events: Callbacks, downstream: Downstream) {
                self.events = events
                self.downstream = downstream
            }

            var description: String { "HandleEvents" }

            private var currentEvents: Callbacks? { lock.withLock { events } }

            func receive(subscription: Subscription) {
                currentEvents?.receiveSubscription?(subscription)
                lock.lock()
                guard case .awaitingSubscription = state else {
                    lock.unlock()
                    subscription.cancel()
                    return
                }
                state = .subscribed(subscription)
                lock.unlock()
                downstream.receive(subscription: self)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                lock.lock()
                if case .terminal = state {
                    lock.unlock()
                    return .none
                }
                let events = self.events
                lock.unlock()
                events?.receiveOutput?(input)
                let demand = downstream.receive(input)
                if demand > 0 { currentEvents?.receiveRequest?(demand) }
                return demand
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                lock.lock()
                if case .terminal = state {
                    lock.unlock()
                    return
                }
                // Terminal before the closure runs, so a racing cancel() cannot also fire.
                state = .terminal
                let events = self.events
                self.events = nil
                lock.unlock()
                events?.receiveCompletion?(completion)
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                currentEvents?.receiveRequest?(demand)
                lock.lock()
                guard case .subscribed(let subscription) = state else {
                    lock.unlock()
                    return
                }
                lock.unlock()
                subscription.request(demand)
            }

            func cancel() {
                lock.lock()
                let events = self.events
                guard case .subscribed(let subscription) = state else {
                    // Before the subscription (Apple fires the closure then too) or after the end.
                    lock.unlock()
                    events?.receiveCancel?()
                    return
                }
                // Terminal before the closure runs, so a racing completion cannot also fire.
                state = .terminal
                self.events = nil
                lock.unlock()
                events?.receiveCancel?()
                subscription.cancel()
            }
        }
    }
}

extension Publisher {
    /// Performs the specified closures when publisher events occur.
    public func handleEvents(
        receiveSubscription: ((Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel,
            receiveRequest: receiveRequest
        )
    }
}

extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
    ///
    /// Values and the completion are each scheduled on `scheduler`, in order; the subscription,
    /// requests and cancellation pass through on the caller's thread.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler the publisher is to use for element delivery.
        public let scheduler: Context
        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers on `scheduler`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`, which will receive values on the scheduler.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

extension Publishers.ReceiveOn {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let scheduler: Context
        private let options: Context.SchedulerOptions?
        private let lock = Lock()
        private var state: ScheduledLinkState<Downstream>  // guarded by `lock`

        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            state = .awaitingSubscription(downstream)
            self.scheduler = scheduler
            self.options = options
        }

        var description: String { "ReceiveOn" }

        func receive(subscription: Subscription) {
            lock.lock()
            guard case .awaitingSubscription(let downstream) = state else {
                lock.unlock()
                subscription.cancel()
                return
            }
            state = .subscribed(subscription, downstream)
            lock.unlock()
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard lock.withLock({ state.isSubscribed }) else { return .none }
            scheduler.schedule(options: options) { self.deliver(input) }
            return .none
        }

        private func deliver(_ input: Input) {
            lock.lock()
            guard let downstream = state.downstream, let subscription = state.subscription else {
                lock.unlock()
                return
            }
            lock.unlock()
            let more = downstream.receive(input)
            if more > 0 { subscription.request(more) }
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard case .subscribed(let subscription, let downstream) = state else {
                lock.unlock()
                return
            }
            state = .finishing(subscription, downstream)
            lock.unlock()
            scheduler.schedule(options: options) {
                self.lock.lock()
                guard case .finishing(_, let downstream) = self.state else {
                    self.lock.unlock()
                    return
                }
                self.state = .terminal
                self.lock.unlock()
                downstream.receive(completion: completion)
            }
        }

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            guard case .subscribed(let subscription, _) = state else {
                lock.unlock()
                return
            }
            lock.unlock()
            subscription.request(demand)
        }

        func cancel() {
            lock.lock()
            let subscription = state.subscription
            state = .terminal
            lock.unlock()
            subscription?.cancel()
        }
    }
}

extension Publisher {
    /// Specifies the scheduler on which to receive elements from the publisher.
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler the publisher uses for element delivery.
    ///   - options: Scheduler options used to customize element delivery.
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delays delivery of elements and completion to the downstream receiver.
    ///
    /// Every value and the completion are delivered `interval` after they arrived, in arrival
    /// order. Demand passes straight through to the upstream.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The amount of time to delay.
        public let interval: Context.SchedulerTimeType.Stride
        /// The allowed tolerance in firing delayed events.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// The scheduler to deliver the delayed events.
        public let scheduler: Context
        /// Options relevant to the scheduler’s behavior.
        public let options: Context.SchedulerOptions?

        /// Creates a delaying publisher.
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber` through a delaying stage.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publishers.Delay {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let publisher: Publishers.Delay<Upstream, Context>
        private let lock = Lock()
        private var state: ScheduledLinkState<Downstream>  // guarded by `lock`

        init(downstream: Downstream, publisher: Publishers.Delay<Upstream, Context>) {
            state = .awaitingSubscription(downstream)
            self.publisher = publisher
        }

        var description: String { "Delay" }

        private func later(_ action: @escaping () -> Void) {
            let scheduler = publisher.scheduler
            scheduler.schedule(
                after: scheduler.now.advanced(by: publisher.interval),
                tolerance: publisher.tolerance,
                options: publisher.options,
                action
            )
        }

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
            later { self.deliver(input) }
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
            later {
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
    /// Delays delivery of all output to the downstream receiver by a specified amount of time on a
    /// particular scheduler.
    ///
    /// - Parameters:
    ///   - interval: The amount of time to delay.
    ///   - tolerance: The allowed tolerance in firing delayed events.
    ///   - scheduler: The scheduler to deliver the delayed events.
    ///   - options: Options relevant to the scheduler’s behavior.
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self,
            interval: interval,
            tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler,
            options: options
        )
    }
}

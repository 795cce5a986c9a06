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
    private final class Inner<Downstream: Subscriber>: ScheduledLink<Downstream>, Subscriber, Subscription,
        CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let scheduler: Context
        private let options: Context.SchedulerOptions?

        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.scheduler = scheduler
            self.options = options
            super.init(downstream: downstream)
        }

        var description: String { "ReceiveOn" }

        func receive(subscription: Subscription) { connect(subscription)?.receive(subscription: self) }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard lock.withLock({ state.isSubscribed }) else { return .none }
            scheduler.schedule(options: options) { self.deliverScheduled(input) }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            finish(completion) { scheduler.schedule(options: options, $0) }
        }

        func request(_ demand: Subscribers.Demand) { forward(demand) }

        func cancel() { disconnect()?.cancel() }
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

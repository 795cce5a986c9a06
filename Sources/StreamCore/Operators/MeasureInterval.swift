extension Publishers {
    /// A publisher that measures and emits the time interval between events received from an
    /// upstream publisher.
    ///
    /// The first value measures the time since subscription. Demand passes straight through.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Context.SchedulerTimeType.Stride
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler used for tracking the timing of events.
        public let scheduler: Context

        /// Creates a publisher that measures the interval between upstream events.
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Attaches `subscriber` through a measuring stage.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
        }
    }
}

extension Publishers.MeasureInterval {
    private final class Inner<Downstream: Subscriber>: ScheduledLink<Downstream>, Subscriber, Subscription,
        CustomStringConvertible
    where Downstream.Input == Context.SchedulerTimeType.Stride, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let scheduler: Context
        /// Guarded by `lock`.
        private var last: Context.SchedulerTimeType?

        init(downstream: Downstream, scheduler: Context) {
            self.scheduler = scheduler
            super.init(downstream: downstream)
        }

        var description: String { "MeasureInterval" }

        func receive(subscription: Subscription) {
            connect(subscription) { last = scheduler.now }?.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed(let subscription, let downstream) = state, let previous = last else {
                lock.unlock()
                return .none
            }
            let now = scheduler.now
            last = now
            lock.unlock()
            let more = downstream.receive(previous.distance(to: now))
            if more > 0 { subscription.request(more) }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard case .subscribed(_, let downstream) = state else {
                lock.unlock()
                return
            }
            state = .terminal
            lock.unlock()
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) { forward(demand) }

        func cancel() { disconnect()?.cancel() }
    }
}

extension Publisher {
    /// Measures and emits the time interval between events received from an upstream publisher.
    ///
    /// - Parameters:
    ///   - scheduler: A scheduler to use for tracking the timing of events.
    ///   - options: Options that customize the delivery of elements.
    public func measureInterval<S: Scheduler>(
        using scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

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
    private final class Inner<Downstream: Subscriber>: ScheduledLink<Downstream>, Subscriber, Subscription,
        CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let publisher: Publishers.Delay<Upstream, Context>

        init(downstream: Downstream, publisher: Publishers.Delay<Upstream, Context>) {
            self.publisher = publisher
            super.init(downstream: downstream)
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

        func receive(subscription: Subscription) { connect(subscription)?.receive(subscription: self) }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard lock.withLock({ state.isSubscribed }) else { return .none }
            later { self.deliverScheduled(input) }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            finish(completion, schedule: later)
        }

        func request(_ demand: Subscribers.Demand) { forward(demand) }

        func cancel() { disconnect()?.cancel() }
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

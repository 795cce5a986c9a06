extension Publishers {
    /// A timer publisher that runs on any scheduler: StreamCore's addition (Apple has none), so
    /// timer-driven pipelines can run on a `TestScheduler` in tests and a `DispatchQueue` in
    /// production.
    ///
    /// Shaped like `Timer.TimerPublisher`: connectable (call `connect()` to start ticking, cancel
    /// the result to stop), and each tick emits the scheduler's `now`, first one `interval` after
    /// `connect()`. Ticks that find a subscriber without demand are dropped.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let timer = scheduler.timerPublisher(every: .seconds(1))
    /// let cancellable = timer.sink { print($0) }
    /// let connection = timer.connect()
    /// scheduler.advance(by: .seconds(3))   // three ticks
    /// ```
    public final class SchedulerTimer<Context: Scheduler>: ConnectablePublisher {
        public typealias Output = Context.SchedulerTimeType
        public typealias Failure = Never

        /// The scheduler on which the timer ticks.
        public let scheduler: Context
        /// The time between ticks.
        public let interval: Context.SchedulerTimeType.Stride
        /// The allowed timing variance; `nil` uses the scheduler's minimum tolerance.
        public let tolerance: Context.SchedulerTimeType.Stride?
        /// Scheduler options passed to the scheduler.
        public let options: Context.SchedulerOptions?

        private let relay = TickRelay<Context.SchedulerTimeType>()

        /// Creates a timer publisher that ticks on `scheduler` every `interval`.
        public init(
            every interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride? = nil,
            scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`; it receives ticks once the timer is connected.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            relay.attach(subscriber)
        }

        /// Starts ticking; cancel the result to stop.
        public func connect() -> Cancellable {
            let relay = self.relay
            let scheduler = self.scheduler
            return scheduler.schedule(
                after: scheduler.now.advanced(by: interval),
                interval: interval,
                tolerance: tolerance ?? scheduler.minimumTolerance,
                options: options
            ) { relay.send(scheduler.now) }
        }
    }
}

extension Scheduler {
    /// A connectable timer publisher that ticks on this scheduler every `interval`, emitting the
    /// scheduler's time. See `Publishers.SchedulerTimer`.
    public func timerPublisher(
        every interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride? = nil,
        options: SchedulerOptions? = nil
    ) -> Publishers.SchedulerTimer<Self> {
        Publishers.SchedulerTimer(every: interval, tolerance: tolerance, scheduler: self, options: options)
    }
}

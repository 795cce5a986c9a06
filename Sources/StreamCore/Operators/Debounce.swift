extension Publishers {
    /// A publisher that publishes elements only after a specified time interval elapses between
    /// events.
    ///
    /// Behaves like Apple's: each value restarts the quiet period, and the last value is delivered
    /// once `dueTime` passes without another one (dropped if the downstream has no demand then).
    /// A completion is delivered at once, on the scheduler, and discards a value still waiting.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The amount of time the publisher should wait before publishing an element.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// The scheduler on which this publisher delivers elements.
        public let scheduler: Context
        /// Scheduler options that customize this publisher’s delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a debouncing publisher.
        public init(
            upstream: Upstream,
            dueTime: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber` through a debouncing stage.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publishers.Debounce {
    private final class Inner<Downstream: Subscriber>: ScheduledLink<Downstream>, Subscriber, Subscription,
        CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let dueTime: Context.SchedulerTimeType.Stride
        private let scheduler: Context
        private let options: Context.SchedulerOptions?
        // Everything below is guarded by `lock`.
        private var demand = Subscribers.Demand.none
        private var pendingValue: Input?
        /// Bumped by every value: a scheduled delivery whose generation is stale does nothing.
        private var generation: UInt64 = 0

        init(downstream: Downstream, publisher: Publishers.Debounce<Upstream, Context>) {
            dueTime = publisher.dueTime
            scheduler = publisher.scheduler
            options = publisher.options
            super.init(downstream: downstream)
        }

        var description: String { "Debounce" }

        func receive(subscription: Subscription) {
            guard let downstream = connect(subscription) else { return }
            downstream.receive(subscription: self)
            subscription.request(.unlimited)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard state.isSubscribed else {
                lock.unlock()
                return .none
            }
            generation += 1
            let current = generation
            pendingValue = input
            let due = scheduler.now.advanced(by: dueTime)
            lock.unlock()
            scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: options) { [weak self] in
                self?.deliver(generation: current)
            }
            return .none
        }

        private func deliver(generation due: UInt64) {
            lock.lock()
            guard due == generation, let downstream = state.downstream, state.isSubscribed,
                  let value = pendingValue
            else {
                lock.unlock()
                return
            }
            pendingValue = nil
            guard demand > 0 else {
                lock.unlock()
                return
            }
            demand -= 1
            lock.unlock()
            let more = downstream.receive(value)
            if more > 0 { lock.withLock { demand += more } }
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            finish(completion, whileLocked: {
                pendingValue = nil
                generation += 1
            }, schedule: { scheduler.schedule(options: options, $0) })
        }

        func request(_ demand: Subscribers.Demand) {
            lock.withLock {
                if state.isSubscribed { self.demand += demand }
            }
        }

        func cancel() {
            disconnect {
                pendingValue = nil
                generation += 1
            }?.cancel()
        }
    }
}

extension Publisher {
    /// Publishes elements only after a specified time interval elapses between events.
    ///
    /// - Parameters:
    ///   - dueTime: The time the publisher should wait before publishing an element.
    ///   - scheduler: The scheduler on which this publisher delivers elements.
    ///   - options: Scheduler options that customize this publisher’s delivery of elements.
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

import Locking

extension Publishers {
    /// A publisher that publishes either the most-recent or first element published by the upstream
    /// publisher in a specified time interval.
    ///
    /// Behaves like Apple's: the first value after a quiet period is delivered at once (on the
    /// scheduler); values arriving within `interval` of the last delivery are held, and when the
    /// window ends the latest (`latest: true`) or the first (`latest: false`) of them is delivered,
    /// which starts the next window. A completion is delivered after any held value, never before.
    /// Values that arrive while the downstream has no demand are dropped.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The interval in which to find and emit the most recent element.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler on which to publish elements.
        public let scheduler: Context
        /// Whether to publish the most recent element (`true`) or the first one (`false`) of a window.
        public let latest: Bool

        /// Creates a throttling publisher.
        @inlinable
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches `subscriber` through a throttling stage.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}

extension Publishers.Throttle {
    /// Inlinable, so that it is specialised for the scheduler and the downstream where the
    /// pipeline is built; the `lock`-guarded fields skip the dynamic exclusivity checks.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: ScheduledLink<Downstream>, Subscriber, Subscription,
        CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let interval: Context.SchedulerTimeType.Stride
        @usableFromInline let scheduler: Context
        @usableFromInline let latest: Bool
        // Everything below is guarded by `lock`.
        @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
        /// The value waiting for its scheduled delivery (at most one per window).
        @usableFromInline @exclusivity(unchecked) var pendingValue: Input?
        @usableFromInline @exclusivity(unchecked) var pendingCompletion: Subscribers.Completion<Failure>?
        @usableFromInline @exclusivity(unchecked) var lastEmission: Context.SchedulerTimeType?

        @inlinable
        init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
            super.init(downstream: downstream)
        }

        @usableFromInline var description: String { "Throttle" }

        @inlinable
        func receive(subscription: Subscription) {
            guard let downstream = connect(subscription) else { return }
            // The downstream asks first: a synchronous source (Just, a current value, @Published)
            // sends while being asked, and a value that found no demand yet would be dropped.
            downstream.receive(subscription: self)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            // As in Combine, a value that finds no demand is dropped, even one that would only
            // have replaced the held value.
            guard state.isSubscribed, demand > 0 else {
                lock.unlock()
                return .none
            }
            if pendingValue != nil {
                if latest { pendingValue = input }
                lock.unlock()
                return .none
            }
            let now = scheduler.now
            let due = lastEmission.map { Swift.max(now, $0.advanced(by: interval)) } ?? now
            demand -= 1
            pendingValue = input
            lock.unlock()
            if due == now {
                scheduler.schedule { self.emit() }
            } else {
                scheduler.schedule(after: due) { self.emit() }
            }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard case .subscribed(let subscription, let downstream) = state else {
                lock.unlock()
                return
            }
            state = .finishing(subscription, downstream)
            pendingCompletion = completion
            let emissionScheduled = pendingValue != nil
            lock.unlock()
            if !emissionScheduled {
                scheduler.schedule { self.emit() }
            }
        }

        /// Delivers the held value and/or completion; runs on the scheduler.
        @inlinable
        func emit() {
            lock.lock()
            guard let downstream = state.downstream else {
                lock.unlock()
                return
            }
            let value = pendingValue
            let completion = pendingCompletion
            pendingValue = nil
            pendingCompletion = nil
            if completion != nil {
                state = .terminal
            } else if value != nil {
                lastEmission = scheduler.now
            }
            lock.unlock()
            var more = Subscribers.Demand.none
            if let value { more = downstream.receive(value) }
            if let completion { downstream.receive(completion: completion) }
            if more > 0 { lock.withLock { demand += more } }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            lock.withLock {
                if state.isSubscribed { self.demand += demand }
            }
        }

        @inlinable
        func cancel() {
            disconnect {
                pendingValue = nil
                pendingCompletion = nil
            }?.cancel()
        }
    }
}

extension Publisher {
    /// Publishes either the most-recent or first element published by the upstream publisher in the
    /// specified time interval.
    ///
    /// - Parameters:
    ///   - interval: The interval at which to find and emit either the most recent or the first element.
    ///   - scheduler: The scheduler on which to publish elements.
    ///   - latest: `true` to publish the most recent element of a window, `false` for the first one.
    @inlinable
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

import Locking

extension Publishers {
    /// A strategy for collecting received elements.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// Collect and periodically publish items.
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// Collect and publish items, either periodically or when a buffer reaches its maximum size.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that buffers and periodically publishes its items.
    ///
    /// Every `stride` from subscription, the items collected since the last group are published
    /// as one array (empty groups are not published). With `.byTimeOrCount`, a group is also
    /// published as soon as it holds `count` items; the intervals keep their cadence (as Apple's). A finish
    /// publishes the partial group first; a failure discards it. Groups wait while the
    /// downstream has no demand.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The strategy with which to collect and publish elements.
        public let strategy: Publishers.TimeGroupingStrategy<Context>
        /// Scheduler options to use for the strategy.
        public let options: Context.SchedulerOptions?

        /// Creates a time-grouping publisher.
        public init(upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Attaches `subscriber` through a time-grouping stage.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publishers.CollectByTime {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let scheduler: Context
        private let stride: Context.SchedulerTimeType.Stride
        /// The group size for `.byTimeOrCount`; `nil` for `.byTime`.
        private let count: Int?
        private let options: Context.SchedulerOptions?
        private let lock = Lock()
        // Guarded by `lock`.
        private var state: ScheduledLinkState<Downstream>
        private var demand = Subscribers.Demand.none
        private var group: [Input] = []
        private var timer: Cancellable?

        init(downstream: Downstream, publisher: Publishers.CollectByTime<Upstream, Context>) {
            state = .awaitingSubscription(downstream)
            switch publisher.strategy {
            case .byTime(let scheduler, let stride):
                (self.scheduler, self.stride, count) = (scheduler, stride, nil)
            case .byTimeOrCount(let scheduler, let stride, let count):
                (self.scheduler, self.stride, self.count) = (scheduler, stride, Swift.max(1, count))
            }
            options = publisher.options
        }

        var description: String { "CollectByTime" }

        /// Starts the interval timer, which runs from subscription until the end.
        private func startTimer() {
            let next = scheduler.schedule(
                after: scheduler.now.advanced(by: stride),
                interval: stride,
                tolerance: scheduler.minimumTolerance,
                options: options
            ) { [weak self] in self?.publishGroup() }
            lock.lock()
            let live = state.isSubscribed
            timer = live ? next : nil
            lock.unlock()
            if !live { next.cancel() }
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
            startTimer()
            downstream.receive(subscription: self)
            if count == nil { subscription.request(.unlimited) }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard state.isSubscribed else {
                lock.unlock()
                return .none
            }
            group.append(input)
            let full = count.map { group.count >= $0 } ?? false
            lock.unlock()
            // A full group goes out at once; the time windows keep their cadence from subscription
            // (as Apple's: the timer is not restarted).
            if full { publishGroup() }
            return .none
        }

        /// Publishes the collected group if there is one and the downstream wants it.
        private func publishGroup() {
            lock.lock()
            guard case .subscribed(let subscription, let downstream) = state, !group.isEmpty, demand > 0 else {
                lock.unlock()
                return
            }
            let size = count.map { Swift.min($0, group.count) } ?? group.count
            let output = Array(group.prefix(size))
            group.removeFirst(size)
            demand -= 1
            lock.unlock()
            let more = downstream.receive(output)
            guard more > 0 else { return }
            lock.withLock { demand += more }
            if let count { subscription.request(more * count) }
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard case .subscribed(_, let downstream) = state else {
                lock.unlock()
                return
            }
            state = .terminal
            let output = group
            group = []
            let timer = self.timer
            self.timer = nil
            lock.unlock()
            timer?.cancel()
            if case .finished = completion, !output.isEmpty {
                _ = downstream.receive(output)
            }
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            guard case .subscribed(let subscription, _) = state else {
                lock.unlock()
                return
            }
            self.demand += demand
            let full = count.map { group.count >= $0 } ?? false
            lock.unlock()
            if let count { subscription.request(demand * count) }
            if full { publishGroup() }
        }

        func cancel() {
            lock.lock()
            let subscription = state.subscription
            state = .terminal
            group = []
            let timer = self.timer
            self.timer = nil
            lock.unlock()
            timer?.cancel()
            subscription?.cancel()
        }
    }
}

extension Publisher {
    /// Collects elements by a given time-grouping strategy, and emits a single array of the
    /// collection.
    ///
    /// - Parameters:
    ///   - strategy: The timing group strategy used by the operator to collect and publish elements.
    ///   - options: Scheduler options to use for the strategy.
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

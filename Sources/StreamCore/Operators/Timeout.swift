extension Publishers {
    /// A publisher that terminates publishing if the upstream publisher exceeds the specified time
    /// interval without producing an element.
    ///
    /// Behaves like Apple's: the clock starts at subscription and restarts at the downstream's
    /// first request and at every value. When it runs out, the upstream is cancelled and the
    /// downstream receives `.finished`, or `.failure(customError())` if given. Values and the
    /// upstream's completion are delivered on the scheduler.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum time interval the publisher can go without emitting an element.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler on which to deliver events.
        public let scheduler: Context
        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?
        /// A closure that produces the failure sent on timeout; `nil` finishes normally instead.
        public let customError: (() -> Upstream.Failure)?

        /// Creates a timing-out publisher.
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?,
            customError: (() -> Upstream.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Attaches `subscriber` through a timing-out stage.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publishers.Timeout {
    private final class Inner<Downstream: Subscriber>: ScheduledLink<Downstream>, Subscriber, Subscription,
        CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let publisher: Publishers.Timeout<Upstream, Context>
        // Guarded by `lock`.
        /// Bumped whenever the clock restarts or stops: a stale timeout does nothing.
        private var generation: UInt64 = 0
        private var requested = false

        init(downstream: Downstream, publisher: Publishers.Timeout<Upstream, Context>) {
            self.publisher = publisher
            super.init(downstream: downstream)
        }

        var description: String { "Timeout" }

        /// Restarts the clock; call with `lock` held, then run the returned closure without it.
        private func restartClock() -> () -> Void {
            generation += 1
            let current = generation
            let scheduler = publisher.scheduler
            return { [publisher] in
                scheduler.schedule(
                    after: scheduler.now.advanced(by: publisher.interval),
                    tolerance: scheduler.minimumTolerance,
                    options: publisher.options
                ) { [weak self] in self?.timedOut(generation: current) }
            }
        }

        func receive(subscription: Subscription) {
            var start: () -> Void = {}
            guard let downstream = connect(subscription, whileLocked: { start = restartClock() }) else { return }
            start()
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard state.isSubscribed else {
                lock.unlock()
                return .none
            }
            let restart = restartClock()
            lock.unlock()
            restart()
            publisher.scheduler.schedule(options: publisher.options) { self.deliver(input) }
            return .none
        }

        /// Delivers a value the upstream sent before anything ended the link. A value sent just
        /// before the upstream's completion (a synchronous source such as `Just`) is delivered
        /// while the link is `.finishing`: the completion was scheduled after it.
        private func deliver(_ input: Input) {
            lock.lock()
            guard let subscription = state.subscription, let downstream = state.downstream else {
                lock.unlock()
                return
            }
            lock.unlock()
            let more = downstream.receive(input)
            if more > 0 { subscription.request(more) }
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            finish(completion, whileLocked: { generation += 1 }) { [publisher] in
                publisher.scheduler.schedule(options: publisher.options, $0)
            }
        }

        private func timedOut(generation due: UInt64) {
            lock.lock()
            guard due == generation, case .subscribed(let subscription, let downstream) = state else {
                lock.unlock()
                return
            }
            state = .terminal
            lock.unlock()
            subscription.cancel()
            downstream.receive(completion: publisher.customError.map { .failure($0()) } ?? .finished)
        }

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            guard case .subscribed(let subscription, _) = state else {
                lock.unlock()
                return
            }
            var restart: (() -> Void)?
            if !requested {
                requested = true
                restart = restartClock()
            }
            lock.unlock()
            restart?()
            subscription.request(demand)
        }

        func cancel() { disconnect { generation += 1 }?.cancel() }
    }
}

extension Publisher {
    /// Terminates publishing if the upstream publisher exceeds the specified time interval without
    /// producing an element.
    ///
    /// - Parameters:
    ///   - interval: The maximum time interval the publisher can go without emitting an element.
    ///   - scheduler: The scheduler to deliver events on.
    ///   - options: Scheduler options that customize the delivery of elements.
    ///   - customError: A closure that produces the failure sent on timeout; without it, the
    ///     publisher finishes normally.
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self,
            interval: interval,
            scheduler: scheduler,
            options: options,
            customError: customError
        )
    }
}

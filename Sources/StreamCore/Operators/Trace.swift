/// One event a traced stage reports: its subscription, each value, its completion, or a cancel
/// from downstream.
public enum TraceEvent<Value, Failure: Error> {
    case subscription
    case value(Value)
    case completion(Subscribers.Completion<Failure>)
    case cancel
}

extension Publishers {
    /// A publisher that reports its upstream's events to `tracer`, each stamped with
    /// `scheduler.now` — so a trace taken on a `TestScheduler` is deterministic — before passing
    /// them on unchanged. Structured where `print` writes text; see `Publisher.trace(_:on:to:)`.
    ///
    /// Without a tracer the upstream is subscribed to directly: the stage adds nothing to the
    /// chain, not even a subscriber in between.
    public struct Trace<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        /// Receives the stage's name, the event, and the scheduler's time of it.
        public typealias Tracer = (_ stage: String, _ event: TraceEvent<Output, Failure>, _ time: Context.SchedulerTimeType) -> Void

        public let upstream: Upstream
        /// The stage's name in the trace.
        public let stage: String
        /// Whose clock stamps the events.
        public let scheduler: Context
        /// Where events go; nil: tracing is off.
        public let tracer: Tracer?

        @inlinable
        public init(upstream: Upstream, stage: String, scheduler: Context, tracer: Tracer?) {
            self.upstream = upstream
            self.stage = stage
            self.scheduler = scheduler
            self.tracer = tracer
        }

        // Always inlined into the stage below it. A traced pipeline reaches this function once
        // per stage, each time with a bigger subscriber type (the operators in between wrap
        // it); the generic specialiser takes such a repeated, growing call for endless type
        // growth and, past the second one, stops specialising — leaving the rest of the chain
        // to run generic code (+23 % per value in the 4-stage benchmark). Inlined, this function
        // never appears in the specialisation history, so with tracing off the chain is
        // specialised exactly as it is without these stages (docs/benchmarks.md).
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            guard let tracer else {
                upstream.receive(subscriber: subscriber)
                return
            }
            let stage = stage
            let clock = scheduler
            let events = Publishers.HandleEvents(
                upstream: upstream,
                receiveSubscription: { (_: Subscription) in tracer(stage, TraceEvent.subscription, clock.now) },
                receiveOutput: { (value: Output) in tracer(stage, TraceEvent.value(value), clock.now) },
                receiveCompletion: { (completion: Subscribers.Completion<Failure>) in
                    tracer(stage, TraceEvent.completion(completion), clock.now)
                },
                receiveCancel: { tracer(stage, TraceEvent.cancel, clock.now) },
                receiveRequest: nil
            )
            events.receive(subscriber: subscriber)
        }
    }
}

extension Publisher {
    /// Reports this publisher's subscription, values, completion and cancel to `tracer` as the
    /// stage `stage`, stamped with `scheduler.now`; a nil tracer costs nothing. (Not in Apple's
    /// Combine: StreamCore's instrumentation, in the spirit of `print` and `handleEvents`.)
    ///
    /// ```swift
    /// input.trace("input", on: scheduler, to: tracer)
    ///     .throttle(for: .milliseconds(500), scheduler: scheduler, latest: true)
    ///     .trace("throttle", on: scheduler, to: tracer)
    /// ```
    @inlinable
    public func trace<S: Scheduler>(
        _ stage: String, on scheduler: S,
        to tracer: ((_ stage: String, _ event: TraceEvent<Output, Failure>, _ time: S.SchedulerTimeType) -> Void)?
    ) -> Publishers.Trace<Self, S> {
        Publishers.Trace(upstream: self, stage: stage, scheduler: scheduler, tracer: tracer)
    }
}

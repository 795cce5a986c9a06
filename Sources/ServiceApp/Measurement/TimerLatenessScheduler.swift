import Dispatch
import StreamCore

/// The pipelines' scheduler with each one-shot timer measured: how late it fires against its
/// deadline (`pipeline_timer_lateness_seconds`). Throttle windows, debounce delays and retry
/// back-offs are such timers; immediate actions and repeating timers pass through unmeasured.
/// Generic over its base, so that a loop's scheduler is reached directly, not through a second
/// type-erased box.
struct TimerLatenessScheduler<Base: Scheduler & Sendable>: Scheduler, Sendable
where Base.SchedulerTimeType == DispatchQueue.SchedulerTimeType, Base.SchedulerOptions == DispatchQueue.SchedulerOptions {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = DispatchQueue.SchedulerOptions

    let base: Base
    /// Receives each timer's lateness (zero when it fired on time or early).
    let record: @Sendable (Duration) -> Void

    var now: SchedulerTimeType { base.now }
    var minimumTolerance: SchedulerTimeType.Stride { base.minimumTolerance }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        base.schedule(options: options, action)
    }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        base.schedule(after: date, tolerance: tolerance, options: options) { [base, record] in
            record(.nanoseconds(Swift.max(0, date.distance(to: base.now).magnitude)))
            action()
        }
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}

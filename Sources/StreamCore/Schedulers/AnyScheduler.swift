/// A type-erased scheduler: hides the concrete scheduler behind its time and option types, so
/// code can take a `DispatchQueue` in production and a `TestScheduler` in tests.
///
/// ```swift
/// final class SearchService {
///     init(scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()) { … }
/// }
/// let service = SearchService(scheduler: DispatchQueue.test.eraseToAnyScheduler())
/// ```
/// Only `Sendable` schedulers can be erased (`DispatchQueue`, `OperationQueue`, `TestScheduler`,
/// `ImmediateScheduler`), which makes `AnyScheduler` itself `Sendable`.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private let base: any SendableScheduler<SchedulerTimeType, SchedulerOptions>

    /// Wraps `scheduler`.
    public init<S: Scheduler & Sendable>(_ scheduler: S)
    where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
        base = scheduler as? any SendableScheduler<SchedulerTimeType, SchedulerOptions> ?? SendableBox(base: scheduler)
    }

    /// The wrapped scheduler's current time.
    public var now: SchedulerTimeType { base.now }

    /// The wrapped scheduler's minimum tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride { base.minimumTolerance }

    /// Performs the action on the wrapped scheduler at the next possible opportunity.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        base.schedule(options: options, action)
    }

    /// Performs the action on the wrapped scheduler after `date`.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    /// Performs the action on the wrapped scheduler from `date` on, every `interval`.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}

/// A type-erased scheduler with the time and option types of scheduler `S`, e.g.
/// `AnySchedulerOf<DispatchQueue>`.
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension Scheduler where Self: Sendable {
    /// Wraps this scheduler in an `AnyScheduler`.
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
        AnyScheduler(self)
    }
}

/// A `Sendable` scheduler seen through both of its types, so it can be held as an existential.
protocol SendableScheduler<SchedulerTimeType, SchedulerOptions>: Scheduler, Sendable {}

extension AnyScheduler: SendableScheduler {}

/// Gives any `Sendable` scheduler the `SendableScheduler` conformance by forwarding to it.
private struct SendableBox<Base: Scheduler & Sendable>: SendableScheduler {
    let base: Base

    var now: Base.SchedulerTimeType { base.now }

    var minimumTolerance: Base.SchedulerTimeType.Stride { base.minimumTolerance }

    func schedule(options: Base.SchedulerOptions?, _ action: @escaping () -> Void) {
        base.schedule(options: options, action)
    }

    func schedule(
        after date: Base.SchedulerTimeType,
        tolerance: Base.SchedulerTimeType.Stride,
        options: Base.SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(
        after date: Base.SchedulerTimeType,
        interval: Base.SchedulerTimeType.Stride,
        tolerance: Base.SchedulerTimeType.Stride,
        options: Base.SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}

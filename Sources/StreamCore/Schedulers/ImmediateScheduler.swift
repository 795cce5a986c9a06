/// A scheduler for performing synchronous actions: every action runs at once, on the caller.
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The time type used by the immediate scheduler: a counter that never advances.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        public typealias Stride = NanosecondStride

        /// The instant, in nanoseconds.
        public var nanoseconds: Int

        public func distance(to other: Self) -> Stride { .nanoseconds(other.nanoseconds - nanoseconds) }

        public func advanced(by n: Stride) -> Self { Self(nanoseconds: nanoseconds + n.magnitude) }
    }

    public typealias SchedulerOptions = Never

    /// The shared instance of the immediate scheduler.
    public static let shared = ImmediateScheduler()

    public var now: SchedulerTimeType { SchedulerTimeType(nanoseconds: 0) }

    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) { action() }

    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        action()
        return AnyCancellable {}
    }
}

import Foundation

extension RunLoop: Scheduler {
    /// The scheduler time type used by the run loop: an instant on the wall clock.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date represented by this type.
        public var date: Date

        /// Creates a run loop time type instance from `date`.
        public init(_ date: Date) { self.date = date }

        /// The distance to another run loop scheduler time.
        public func distance(to other: Self) -> Stride { Stride(other.date.timeIntervalSince(date)) }

        /// A run loop scheduler time advanced by `n`.
        public func advanced(by n: Stride) -> Self { Self(date.addingTimeInterval(n.timeInterval)) }

        /// A span of time in seconds, as Apple's `RunLoop.SchedulerTimeType.Stride`.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable
        {
            public typealias FloatLiteralType = TimeInterval
            public typealias IntegerLiteralType = TimeInterval
            public typealias Magnitude = TimeInterval

            /// The length of the stride, in seconds.
            public var magnitude: TimeInterval

            /// The stride as a `TimeInterval` (seconds).
            public var timeInterval: TimeInterval { magnitude }

            /// Creates a stride of `timeInterval` seconds.
            public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }

            public init(integerLiteral value: TimeInterval) { magnitude = value }

            public init(floatLiteral value: TimeInterval) { magnitude = value }

            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = TimeInterval(exactly: source) else { return nil }
                magnitude = value
            }

            public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude + rhs.magnitude) }
            public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude - rhs.magnitude) }
            public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude * rhs.magnitude) }
            public static func += (lhs: inout Self, rhs: Self) { lhs.magnitude += rhs.magnitude }
            public static func -= (lhs: inout Self, rhs: Self) { lhs.magnitude -= rhs.magnitude }
            public static func *= (lhs: inout Self, rhs: Self) { lhs.magnitude *= rhs.magnitude }

            public static func seconds(_ s: Int) -> Self { Self(TimeInterval(s)) }
            public static func seconds(_ s: Double) -> Self { Self(s) }
            public static func milliseconds(_ ms: Int) -> Self { Self(TimeInterval(ms) / 1_000) }
            public static func microseconds(_ us: Int) -> Self { Self(TimeInterval(us) / 1_000_000) }
            public static func nanoseconds(_ ns: Int) -> Self { Self(TimeInterval(ns) / 1_000_000_000) }
        }
    }

    /// Options that affect the operation of the run loop scheduler (none, as in Apple's).
    public struct SchedulerOptions: Sendable {}

    /// The current time, as the run loop sees it.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// The run loop's minimum tolerance: zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Performs `action` on the run loop's next pass.
    ///
    /// Scheduled from another thread, the action also wakes the run loop: a block queued with
    /// `perform` alone waits until something else (a timer, a source, the end of a
    /// `run(until:)`) wakes a sleeping loop, which starved `receive(on: RunLoop.main)` while the
    /// main thread slept in `RunLoop.main.run(until:)` or between `XCTestCase.wait` slices.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        // Combine's scheduler actions are not Sendable; the operators that schedule them guard
        // every piece of state they touch with a lock.
        nonisolated(unsafe) let action = action
        perform { action() }
        if RunLoop.current !== self { wakeUp() }
    }

    /// Wakes the run loop if it sleeps: a timer due at once, added from any thread, re-arms the
    /// loop's timer source (swift-corelibs-foundation does not expose `CFRunLoopWakeUp`), and the
    /// loop runs its queued blocks on that pass.
    private func wakeUp() {
        add(Timer(fire: .distantPast, interval: 0, repeats: false) { _ in }, forMode: .default)
    }

    /// Performs `action` on the run loop once `date` has passed.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        nonisolated(unsafe) let action = action
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in action() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
    }

    /// Performs `action` on the run loop from `date` on, every `interval`, until cancelled.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        nonisolated(unsafe) let action = action
        // Invalidated from the cancellable, which may run on any thread.
        nonisolated(unsafe) let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in
            action()
        }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
        return AnyCancellable { timer.invalidate() }
    }
}

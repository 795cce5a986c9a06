import Dispatch
import Foundation

extension OperationQueue: Scheduler {
    /// The operation queue's time type: the same wall-clock instants and seconds as the run
    /// loop's (Apple declares a separate struct of the same shape).
    public typealias SchedulerTimeType = RunLoop.SchedulerTimeType

    /// Options that affect the operation of the operation queue scheduler (none, as in Apple's).
    public struct SchedulerOptions: Sendable {}

    /// The current time.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// The operation queue's minimum tolerance: zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds `action` to the queue as an operation.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        // Combine's scheduler actions are not Sendable; the operators that schedule them guard
        // every piece of state they touch with a lock.
        nonisolated(unsafe) let action = action
        addOperation { action() }
    }

    /// Adds `action` to the queue once `date` has passed.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        nonisolated(unsafe) let action = action
        Self.timerQueue.asyncAfter(wallDeadline: Self.deadline(for: date)) {
            self.addOperation { action() }
        }
    }

    /// Adds `action` to the queue from `date` on, every `interval`, until cancelled.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        nonisolated(unsafe) let action = action
        let timer = DispatchSource.makeTimerSource(queue: Self.timerQueue)
        timer.setEventHandler { self.addOperation { action() } }
        timer.schedule(
            wallDeadline: Self.deadline(for: date),
            repeating: Swift.max(interval.timeInterval, 1e-9),
            leeway: .nanoseconds(Int(Swift.max(0, tolerance.timeInterval) * 1e9))
        )
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }

    /// The serial queue on which delayed actions wait; being serial, it hands actions to the
    /// operation queue in the order of their dates, so delayed values are not reordered.
    private static let timerQueue = DispatchQueue(label: "StreamCore.OperationQueue.timers")

    /// The wall-clock dispatch deadline of a scheduler instant.
    private static func deadline(for date: SchedulerTimeType) -> DispatchWallTime {
        let seconds = date.date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        return DispatchWallTime(timespec: timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9)))
    }
}

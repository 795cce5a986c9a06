import Dispatch
import HTTPServer
import Locking
import StreamCore
import Synchronization

/// An `EventLoop` as a StreamCore scheduler, on `DispatchQueue`'s time type so that it can stand
/// where a pipeline takes `AnySchedulerOf<DispatchQueue>`. Actions run on the loop's thread:
/// a session whose throttle or debounce runs here produces its results on the thread that
/// writes its socket, instead of on a Dispatch thread that hands them over to the loop.
///
/// Like `DispatchQueue`'s, `schedule(options:_:)` never runs the action inline, and the
/// options (QoS, flags, group) are ignored: the loop has one thread and no groups.
public struct EventLoopScheduler: Scheduler, Sendable {
    public typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    public typealias SchedulerOptions = DispatchQueue.SchedulerOptions

    /// The loop the actions run on.
    public let loop: EventLoop

    /// The loop's timer slack: how late past its deadline an action may run. Converted once
    /// here: every `schedule(after:)` without a tolerance reads it.
    public let minimumTolerance: SchedulerTimeType.Stride

    public init(loop: EventLoop) {
        self.loop = loop
        minimumTolerance = .nanoseconds(Int(loop.timerSlack / .nanoseconds(1)))
    }

    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = SchedulerAction(action)
        loop.enqueue { action.run() }
    }

    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = SchedulerAction(action)
        loop.schedule(at: date.dispatchTime) { action.run() }
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let action = SchedulerAction(action)
        let repeating = RepeatingLoopTimer(loop: loop, interval: UInt64(Swift.max(1, interval.magnitude))) { action.run() }
        repeating.start(at: date.dispatchTime.uptimeNanoseconds)
        return AnyCancellable { repeating.cancel() }
    }
}

extension EventLoop {
    /// This loop as a StreamCore scheduler.
    public var scheduler: EventLoopScheduler { EventLoopScheduler(loop: self) }
}

/// A timer that runs its action every `interval` from its first deadline, each next deadline
/// counted from the last one, until cancelled. Runs missed while the loop was busy are
/// coalesced into one, as a Dispatch timer source does.
private final class RepeatingLoopTimer: Sendable {
    private let loop: EventLoop
    private let interval: UInt64
    private let action: @Sendable () -> Void
    /// The next run's timer: each run replaces it on the loop; `cancel` reads it from any thread.
    private let current = Locked<LoopTimer?>(nil)
    private let cancelled = Atomic<Bool>(false)

    init(loop: EventLoop, interval: UInt64, action: @escaping @Sendable () -> Void) {
        self.loop = loop
        self.interval = interval
        self.action = action
    }

    func start(at deadline: UInt64) {
        let timer = loop.schedule(at: DispatchTime(uptimeNanoseconds: deadline)) { [self] in fire(deadline) }
        current.withLock { $0 = timer }
        // A cancel between `schedule` and storing the timer found the previous one.
        if cancelled.load(ordering: .acquiring) { timer.cancel() }
    }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
        let timer = current.withLock { $0 }
        timer?.cancel()
    }

    private func fire(_ deadline: UInt64) {
        guard !cancelled.load(ordering: .acquiring) else { return }
        action()
        var next = deadline &+ interval
        let now = DispatchTime.now().uptimeNanoseconds
        if next <= now { next &+= ((now - next) / interval + 1) &* interval }
        start(at: next)
    }
}

/// A scheduler action on its way to the loop. Combine's actions are not `Sendable`; the
/// operators that schedule them guard every piece of state they touch with a lock, as they must
/// for `DispatchQueue`, whose actions run on any of its threads. (`EventLoopSchedulerTests`
/// runs them from other threads.)
private struct SchedulerAction: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) { self.run = run }
}

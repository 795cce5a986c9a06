import Dispatch
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

    public init(loop: EventLoop) { self.loop = loop }

    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        // Combine's scheduler actions are not Sendable; the operators that schedule them guard
        // every piece of state they touch with a lock (as for DispatchQueue).
        nonisolated(unsafe) let action = action
        loop.enqueue { action() }
    }

    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        nonisolated(unsafe) let action = action
        loop.schedule(at: date.dispatchTime) { action() }
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        nonisolated(unsafe) let action = action
        let repeating = RepeatingLoopTimer(loop: loop, interval: UInt64(Swift.max(1, interval.magnitude))) { action() }
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
private final class RepeatingLoopTimer: @unchecked Sendable {
    // Sendable: `current` is guarded by `lock` (each run replaces it on the loop; `cancel`
    // reads it from any thread); the rest is immutable or atomic.
    private let loop: EventLoop
    private let interval: UInt64
    private let action: @Sendable () -> Void
    private let lock = Lock()
    private var current: LoopTimer?
    private let cancelled = Atomic<Bool>(false)

    init(loop: EventLoop, interval: UInt64, action: @escaping @Sendable () -> Void) {
        self.loop = loop
        self.interval = interval
        self.action = action
    }

    func start(at deadline: UInt64) {
        let timer = loop.schedule(at: DispatchTime(uptimeNanoseconds: deadline)) { [self] in fire(deadline) }
        lock.withLock { current = timer }
        // A cancel between `schedule` and storing the timer found the previous one.
        if cancelled.load(ordering: .acquiring) { timer.cancel() }
    }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
        let timer = lock.withLock { current }
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

import Dispatch
import Locking

/// A scheduler whose clock moves only when told to: time-dependent pipelines are tested on it
/// deterministically, without sleeping.
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// subject.throttle(for: .milliseconds(500), scheduler: scheduler, latest: true).sink { … }
/// subject.send("h")
/// scheduler.advance(by: .milliseconds(500))   // runs everything due by then, in time order
/// ```
/// Actions due at the same instant run in the order they were scheduled.
public final class TestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    // Safe to share: `now`, `sequence` and `queue` are only touched with `lock` held, and actions
    // run with it released.
    // Inlinable (with the state it touches), so that code using a concrete time type — the
    // pipelines under test — gets specialized comparisons instead of generic witness calls.
    @usableFromInline let lock = Lock()
    @usableFromInline var currentTime: SchedulerTimeType
    @usableFromInline var sequence: UInt64 = 0
    @usableFromInline var queue: [(sequence: UInt64, date: SchedulerTimeType, action: () -> Void)] = []

    /// Creates a test scheduler whose clock reads `now`.
    public init(now: SchedulerTimeType) { currentTime = now }

    @inlinable public var now: SchedulerTimeType { lock.withLock { currentTime } }

    @inlinable public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// The number of actions waiting to run.
    public var pendingCount: Int { lock.withLock { queue.count } }

    /// Moves the clock forward by `stride`, running every action due by then in time order.
    @inlinable
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        advance(to: now.advanced(by: stride))
    }

    /// Moves the clock to `instant`, running every action due by then in time order.
    @inlinable
    public func advance(to instant: SchedulerTimeType) {
        while true {
            lock.lock()
            guard let index = nextIndex(), queue[index].date <= instant else {
                if currentTime < instant { currentTime = instant }
                lock.unlock()
                return
            }
            let next = queue.remove(at: index)
            if currentTime < next.date { currentTime = next.date }
            lock.unlock()
            next.action()
        }
    }

    /// Runs every scheduled action, advancing the clock to each one's time, until none is left.
    /// A repeating action must be cancelled first, or this never returns.
    public func run() {
        while let date = lock.withLock({ nextIndex().map { queue[$0].date } }) {
            advance(to: date)
        }
    }

    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        enqueue(at: now, action)
    }

    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        enqueue(at: date, action)
    }

    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        let repeating = RepeatingAction()
        func fire(at date: SchedulerTimeType) {
            repeating.id = enqueue(at: date) { [weak self] in
                action()
                guard self != nil, !repeating.isCancelled else { return }
                fire(at: date.advanced(by: interval))
            }
        }
        fire(at: date)
        return AnyCancellable { [weak self] in
            repeating.isCancelled = true
            guard let self else { return }
            self.lock.withLock { self.queue.removeAll { $0.sequence == repeating.id } }
        }
    }

    @inlinable @discardableResult
    func enqueue(at date: SchedulerTimeType, _ action: @escaping () -> Void) -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        sequence += 1
        queue.append((sequence, date, action))
        return sequence
    }

    @inlinable
    func nextIndex() -> Int? {
        queue.indices.min { (queue[$0].date, queue[$0].sequence) < (queue[$1].date, queue[$1].sequence) }
    }

    /// The state of one repeating action; only touched on the thread advancing the scheduler.
    private final class RepeatingAction {
        var id: UInt64 = 0
        var isCancelled = false
    }
}

/// A test scheduler with the time and option types of scheduler `S`.
public typealias TestSchedulerOf<S: Scheduler> = TestScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension DispatchQueue {
    /// A test scheduler of dispatch time, starting at an arbitrary fixed instant.
    public static var test: TestSchedulerOf<DispatchQueue> {
        TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}

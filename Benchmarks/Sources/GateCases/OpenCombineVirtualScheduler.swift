import OpenCombine

/// A minimal virtual-time scheduler for OpenCombine (it ships none), so `throttle` can be driven
/// the way StreamCore's `TestScheduler` drives it: actions run only when `advance(by:)` moves the
/// clock past their time, in time then arrival order. Single-threaded, like the benchmark.
final class OpenCombineVirtualScheduler: Scheduler {
    struct Time: Strideable, Hashable {
        var nanoseconds: Int
        func distance(to other: Time) -> Stride { Stride(nanoseconds: other.nanoseconds - nanoseconds) }
        func advanced(by n: Stride) -> Time { Time(nanoseconds: nanoseconds + n.nanoseconds) }

        struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable {
            var nanoseconds: Int
            init(nanoseconds: Int) { self.nanoseconds = nanoseconds }
            init?<T: BinaryInteger>(exactly source: T) { guard let value = Int(exactly: source) else { return nil }; nanoseconds = value }
            init(integerLiteral value: Int) { nanoseconds = value }
            var magnitude: Int { abs(nanoseconds) }
            static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
            static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.nanoseconds + rhs.nanoseconds) }
            static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.nanoseconds - rhs.nanoseconds) }
            static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.nanoseconds * rhs.nanoseconds) }
            static func += (lhs: inout Stride, rhs: Stride) { lhs.nanoseconds += rhs.nanoseconds }
            static func -= (lhs: inout Stride, rhs: Stride) { lhs.nanoseconds -= rhs.nanoseconds }
            static func *= (lhs: inout Stride, rhs: Stride) { lhs.nanoseconds *= rhs.nanoseconds }
            static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: s * 1_000_000_000) }
            static func seconds(_ s: Double) -> Stride { Stride(nanoseconds: Int(s * 1e9)) }
            static func milliseconds(_ ms: Int) -> Stride { Stride(nanoseconds: ms * 1_000_000) }
            static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: us * 1_000) }
            static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }
        }
    }

    typealias SchedulerTimeType = Time
    typealias SchedulerOptions = Never

    private(set) var now = Time(nanoseconds: 0)
    var minimumTolerance: Time.Stride { .nanoseconds(0) }
    private var queue: [(time: Time, sequence: Int, action: () -> Void)] = []
    private var sequence = 0

    func schedule(options: Never?, _ action: @escaping () -> Void) { enqueue(now, action) }
    func schedule(after date: Time, tolerance: Time.Stride, options: Never?, _ action: @escaping () -> Void) { enqueue(date, action) }
    func schedule(after date: Time, interval: Time.Stride, tolerance: Time.Stride, options: Never?, _ action: @escaping () -> Void) -> Cancellable {
        fatalError("repeating actions are not used by the benchmark")
    }

    private func enqueue(_ time: Time, _ action: @escaping () -> Void) {
        sequence += 1
        queue.append((time, sequence, action))
    }

    /// Runs every action due by `now + stride`, in time order, moving the clock to each.
    func advance(by stride: Time.Stride) {
        let target = now.advanced(by: stride)
        while let index = queue.indices.min(by: { (queue[$0].time.nanoseconds, queue[$0].sequence) < (queue[$1].time.nanoseconds, queue[$1].sequence) }),
              queue[index].time.nanoseconds <= target.nanoseconds {
            let next = queue.remove(at: index)
            now = Time(nanoseconds: max(now.nanoseconds, next.time.nanoseconds))
            next.action()
        }
        now = target
    }
}

import Synchronization

/// A timer an `EventLoop` runs once, at its deadline or soon after, unless cancelled first.
public final class LoopTimer: Sendable {
    private let cancelled = Atomic<Bool>(false)

    init() {}

    /// Keeps the timer from running; safe from any thread, a no-op once it has run.
    public func cancel() { cancelled.store(true, ordering: .releasing) }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}

/// The timers of one event loop: a binary min-heap by deadline, equal deadlines in the order
/// they were added. Pure (the loop passes `now` in), so it is tested without a clock.
///
/// A cancelled timer stays queued until its deadline, then is dropped without running: the
/// pipelines cancel timers whose deadline is at most a throttle or debounce interval away, so
/// that costs less than finding it in the heap.
struct LoopTimerQueue {
    struct Entry {
        let deadline: UInt64
        let sequence: UInt64
        let timer: LoopTimer
        let action: @Sendable () -> Void

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var added: UInt64 = 0

    /// The earliest deadline queued (cancelled timers included), uptime nanoseconds.
    var nextDeadline: UInt64? { heap.first?.deadline }

    /// Timers queued, cancelled ones included.
    var count: Int { heap.count }

    mutating func add(deadline: UInt64, timer: LoopTimer, action: @escaping @Sendable () -> Void) {
        heap.append(Entry(deadline: deadline, sequence: added, timer: timer, action: action))
        added &+= 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the earliest timer due at `now` that was not cancelled and returns its action;
    /// nil when none is due. Cancelled timers met on the way are dropped.
    mutating func popDue(now: UInt64) -> (@Sendable () -> Void)? {
        while let first = heap.first, first.deadline <= now {
            removeFirst()
            if !first.timer.isCancelled { return first.action }
        }
        return nil
    }

    private mutating func removeFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            let right = left + 1
            let child = right < heap.count && heap[right].precedes(heap[left]) ? right : left
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}

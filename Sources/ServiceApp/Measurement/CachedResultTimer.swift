import Dispatch
import Locking

/// One pipeline's ``CachedResultClock``, shared by the threads its events come from, and where its
/// durations go (`pipeline_cached_result_seconds`).
final class CachedResultTimer: Sendable {
    private let clock = Locked(CachedResultClock())
    private let record: @Sendable (Duration) -> Void

    init(record: @escaping @Sendable (Duration) -> Void) { self.record = record }

    /// An input frame read at `readAt` is about to enter the throttle.
    func inputArriving(readAt: DispatchTime) {
        let cost = Duration.nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds &- readAt.uptimeNanoseconds))
        clock.withLock { $0.inputArrived(cost: cost) }
    }

    /// The throttle let a value through, and it is about to be looked up.
    func throttled() {
        let now = DispatchTime.now()
        clock.withLock { $0.throttled(at: now) }
    }

    /// A lookup went upstream.
    func wentUpstream() { clock.withLock { $0.wentUpstream() } }

    /// The result frame was written: records its duration when it was a cached answer.
    func resultWritten() {
        let now = DispatchTime.now()
        if let duration = clock.withLock({ $0.resultWritten(at: now) }) { record(duration) }
    }
}

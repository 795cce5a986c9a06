import Dispatch

/// A point on the uptime clock at which a connection times out (`Connection.deadline`; nil
/// there means none).
struct Deadline: Sendable, Comparable {
    /// Uptime in nanoseconds.
    let uptimeNanoseconds: UInt64

    /// The uptime instant `duration` from now (a negative duration counts as zero).
    static func after(_ duration: Duration) -> Deadline {
        let (seconds, attoseconds) = max(duration, .zero).components
        let nanoseconds = UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
        return Deadline(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds &+ nanoseconds)
    }

    static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.uptimeNanoseconds < rhs.uptimeNanoseconds }
}

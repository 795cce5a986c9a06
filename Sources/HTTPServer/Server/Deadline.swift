import Dispatch

/// A point on the uptime clock at which a connection times out (`Connection.deadline`; nil
/// there means none).
struct Deadline: Sendable, Comparable {
    /// Uptime in nanoseconds.
    let uptimeNanoseconds: UInt64

    /// The uptime instant `duration` from now (a negative duration counts as zero).
    static func after(_ duration: Duration) -> Deadline {
        Deadline(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds &+ duration.nanosecondsClampedToZero)
    }

    static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.uptimeNanoseconds < rhs.uptimeNanoseconds }
}

extension Duration {
    /// Whole nanoseconds, a negative duration counting as zero.
    var nanosecondsClampedToZero: UInt64 {
        let (seconds, attoseconds) = max(self, .zero).components
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}

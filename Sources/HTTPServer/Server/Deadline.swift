import Dispatch
import Foundation

/// Uptime deadlines for connections (`Connection.deadline`).
enum Deadline {
    /// The uptime in nanoseconds `seconds` from now.
    static func after(_ seconds: TimeInterval) -> UInt64 {
        DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, seconds) * 1e9)
    }
}

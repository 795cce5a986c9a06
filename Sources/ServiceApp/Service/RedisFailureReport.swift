import Foundation
import Locking
import Logging
import Metrics
import SharedState

/// What the service says when Redis fails: `redis_errors_total{kind}` every time, and a warning
/// once per minute at most ("carrying on with this replica's own state"), which tells an
/// unreachable Redis from a refused command.
final class RedisFailureReport: Sendable {
    /// When the last warning was logged.
    private let lastWarning = LockedState<Date?>(nil)
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    var report: @Sendable (RedisError) -> Void {
        { [self] error in
            let kind: String = switch error {
            case .connection: "connection"
            case .timeout: "timeout"
            case .server: "server"
            }
            Counter(label: "redis_errors_total", dimensions: [("kind", kind)]).increment()
            let now = Date()
            let warn = lastWarning.withLock { lastWarning -> Bool in
                if let last = lastWarning, now.timeIntervalSince(last) < 60 { return false }
                lastWarning = now
                return true
            }
            guard warn else { return }
            if case .server = error {
                // Reached, but a command or script was refused (a bug, or Redis out of memory).
                logger.warning("Redis refused a command: carrying on with this replica's own state for it", metadata: ["error": "\(error)"])
            } else {
                logger.warning("Redis unavailable: carrying on with this replica's own state", metadata: ["error": "\(error)"])
            }
        }
    }
}

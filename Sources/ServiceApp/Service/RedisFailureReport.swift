import Foundation
import Locking
import Logging
import Metrics
import SharedState

/// What the service says when Redis fails: `redis_errors_total{kind}` every time, and a warning
/// once per minute at most ("carrying on with this replica's own state"), which tells an
/// unreachable Redis from a refused command. A sentinel that cannot be asked (`kind="sentinel"`)
/// gets a warning a minute of its own, with the reason (refused `AUTH`, unreachable, …).
final class RedisFailureReport: @unchecked Sendable {
    // Sendable: `lastWarning` and `lastSentinelWarning` are guarded by `lock`.
    private let lock = Lock()
    private var lastWarning: Date?
    private var lastSentinelWarning: Date?
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    var reportSentinel: @Sendable (RedisAddress, String) -> Void {
        { [self] sentinel, reason in
            Counter(label: "redis_errors_total", dimensions: [("kind", "sentinel")]).increment()
            let now = Date()
            let warn = lock.withLock { () -> Bool in
                if let last = lastSentinelWarning, now.timeIntervalSince(last) < 60 { return false }
                lastSentinelWarning = now
                return true
            }
            guard warn else { return }
            logger.warning("a Redis sentinel could not be asked: trying the next", metadata: [
                "sentinel": "\(sentinel)", "error": "\(reason)",
            ])
        }
    }

    var report: @Sendable (RedisError) -> Void {
        { [self] error in
            let kind: String = switch error {
            case .connection: "connection"
            case .timeout: "timeout"
            case .server: "server"
            }
            Counter(label: "redis_errors_total", dimensions: [("kind", kind)]).increment()
            let now = Date()
            let warn = lock.withLock { () -> Bool in
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

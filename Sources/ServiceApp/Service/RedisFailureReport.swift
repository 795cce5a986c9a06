import Foundation
import Locking
import Logging
import Metrics
import SharedState

/// What the service says when Redis fails: `redis_errors_total{kind}` every time, and a warning
/// once per minute at most ("carrying on with this replica's own state"), which tells an
/// unreachable Redis from a refused command. A sentinel that cannot be asked (`kind="sentinel"`)
/// gets a warning a minute of its own, with the reason (refused `AUTH`, unreachable, …).
final class RedisFailureReport: Sendable {
    /// When each kind of warning was last logged.
    private struct LastWarnings: Sendable {
        var redis: Date?
        var sentinel: Date?
    }
    private let lastWarnings = Locked(LastWarnings())
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    var reportSentinel: @Sendable (RedisAddress, String) -> Void {
        { [self] sentinel, reason in
            Counter(label: "redis_errors_total", dimensions: [("kind", "sentinel")]).increment()
            guard due(\.sentinel) else { return }
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
            guard due(\.redis) else { return }
            if case .server = error {
                // Reached, but a command or script was refused (a bug, or Redis out of memory).
                logger.warning("Redis refused a command: carrying on with this replica's own state for it", metadata: ["error": "\(error)"])
            } else {
                logger.warning("Redis unavailable: carrying on with this replica's own state", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Whether a warning of this kind is due (none in the last minute); if so, it is now.
    private func due(_ kind: WritableKeyPath<LastWarnings, Date?> & Sendable) -> Bool {
        let now = Date()
        return lastWarnings.withLock { last in
            if let previous = last[keyPath: kind], now.timeIntervalSince(previous) < 60 { return false }
            last[keyPath: kind] = now
            return true
        }
    }
}

import Foundation

/// GitHub's rate limit as the responses report it. Once it is spent, lookups answer
/// `rate_limited` at once, without an upstream call, until the reset time.
public final class RateLimitBudget: @unchecked Sendable {
    // Sendable: `blockedUntil` is guarded by `lock`.

    private let lock = NSLock()
    private var blockedUntil: Date?
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    /// Seconds until requests may be sent again, or nil when they may be sent now.
    public func secondsUntilReset() -> Int? {
        let now = now()
        return lock.withLock {
            guard let until = blockedUntil else { return nil }
            guard until > now else {
                blockedUntil = nil
                return nil
            }
            return max(1, Int(until.timeIntervalSince(now).rounded(.up)))
        }
    }

    /// Reads `x-ratelimit-remaining`/`x-ratelimit-reset` and `Retry-After` from a response.
    /// Returns the seconds to wait when the response says the limit is spent.
    @discardableResult
    public func update(statusCode: Int, header: (String) -> String?) -> Int? {
        let now = now()
        var until: Date?
        if let retryAfter = header("Retry-After").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
           statusCode == 429 || statusCode == 403 {
            until = now.addingTimeInterval(TimeInterval(max(1, retryAfter)))
        } else if header("x-ratelimit-remaining").flatMap({ Int($0) }) == 0 {
            let reset = header("x-ratelimit-reset").flatMap { TimeInterval($0) }.map(Date.init(timeIntervalSince1970:))
            until = reset.map { max($0, now.addingTimeInterval(1)) } ?? now.addingTimeInterval(60)
        } else if statusCode == 429 {
            until = now.addingTimeInterval(60)
        }
        guard let until else { return nil }
        lock.withLock { blockedUntil = max(blockedUntil ?? until, until) }
        return max(1, Int(until.timeIntervalSince(now).rounded(.up)))
    }
}

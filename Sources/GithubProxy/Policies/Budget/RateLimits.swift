import Foundation
import Locking

/// GitHub's rate limits, one `RateLimitBudget` per resource named by `x-ratelimit-resource`
/// (`core`, `search`, `graphql`, …): spending one never blocks another.
public final class RateLimits: Sendable {
    /// Each resource's budget (each thread-safe itself).
    private let budgets: Locked<[String: RateLimitBudget]>
    private let now: @Sendable () -> Date

    /// - Parameter budgets: budgets to start with, by resource (tests pass their own).
    public init(budgets: [String: RateLimitBudget] = [:], now: @escaping @Sendable () -> Date = Date.init) {
        self.budgets = Locked(budgets)
        self.now = now
    }

    /// The budget of `resource`, made on first use. Resources are few and named by GitHub; a
    /// name over 32 characters is folded into `other` so a broken upstream cannot grow the table.
    public func budget(for resource: String) -> RateLimitBudget {
        let name = Self.name(of: resource)
        return budgets.withLock { budgets in
            if let budget = budgets[name] { return budget }
            let budget = RateLimitBudget(now: now)
            budgets[name] = budget
            return budget
        }
    }

    /// The table's name for `resource`: lowercased, and `other` past 32 characters.
    public static func name(of resource: String) -> String {
        resource.count <= 32 ? resource.lowercased() : "other"
    }

    /// The resources seen so far and the seconds each is still paused (nil when open).
    public var snapshot: [String: Int?] {
        let budgets = budgets.withLock { $0 }
        return budgets.mapValues { $0.secondsUntilReset() }
    }
}

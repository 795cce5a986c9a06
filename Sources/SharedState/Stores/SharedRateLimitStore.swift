import Foundation

/// What one GitHub response said of its resource's rate limit, as replicas share it.
public struct RateLimitReading: Equatable, Sendable {
    /// `x-ratelimit-remaining`.
    public var remaining: Int?
    /// `x-ratelimit-reset`: when the window ends and `remaining` is full again.
    public var reset: Date?
    /// A pause the response began (a secondary limit, `retry-after`, a bare 429), in seconds.
    public var pauseSeconds: Int?

    public init(remaining: Int? = nil, reset: Date? = nil, pauseSeconds: Int? = nil) {
        self.remaining = remaining
        self.reset = reset
        self.pauseSeconds = pauseSeconds
    }

    /// Whether there is anything to share.
    public var isEmpty: Bool { remaining == nil && pauseSeconds == nil }
}

/// Where replicas share GitHub's rate limits (Redis, with `RedisRateLimitStore`), next to each
/// replica's own `RateLimits`: before a request, one is taken from the resource's shared
/// remaining count, atomically, so two replicas can never both spend the last one; after it, the
/// response's reading is recorded for all. An unreachable store allows the request (each replica
/// then goes by its own budgets).
public protocol SharedRateLimitStore: Sendable {
    /// Takes one request from `resource`'s shared budget. `completion(nil)`: send it;
    /// `completion(seconds)`: the resource is spent or paused for that long, send nothing.
    /// Runs once, on any thread.
    func take(_ resource: String, completion: @escaping @Sendable (Int?) -> Void)
    /// Shares what a response said of `resource` (best effort).
    func record(_ resource: String, _ reading: RateLimitReading)
}

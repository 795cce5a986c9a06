import StreamCore

/// How transient upstream failures are retried: exponential backoff with full jitter.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt (2 retries = 3 attempts).
    public var maxRetries: Int
    /// The delay before the first retry, before jitter.
    public var baseDelay: Duration
    /// The upper bound of any one delay.
    public var maxDelay: Duration
    /// The fraction of each delay that is randomised (0 = none, 1 = anywhere in 0...delay).
    public var jitter: Double

    public init(
        maxRetries: Int = 2, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(5), jitter: Double = 0.5
    ) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = min(1, max(0, jitter))
    }

    /// The delay before retry number `retry` (0-based): base·2^retry capped, minus up to
    /// `jitter` of it, drawn from `random` (a value in 0..<1); in whole milliseconds.
    public func delay(beforeRetry retry: Int, random: Double) -> Duration {
        let exponential = baseDelay * (1 << min(retry, 20))
        let capped = min(maxDelay, exponential) / .milliseconds(1)
        return .milliseconds(Int((capped * (1 - jitter * random)).rounded()))
    }
}

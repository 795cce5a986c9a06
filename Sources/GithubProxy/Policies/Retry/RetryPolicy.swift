import StreamCore

/// How transient upstream failures are retried: exponential backoff with full jitter.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt (2 retries = 3 attempts).
    public var maxRetries: Int
    /// The delay before the first retry, before jitter.
    public var baseDelayMilliseconds: Int
    /// The upper bound of any one delay.
    public var maxDelayMilliseconds: Int
    /// The fraction of each delay that is randomised (0 = none, 1 = anywhere in 0...delay).
    public var jitter: Double

    public init(maxRetries: Int = 2, baseDelayMilliseconds: Int = 200, maxDelayMilliseconds: Int = 5_000, jitter: Double = 0.5) {
        self.maxRetries = maxRetries
        self.baseDelayMilliseconds = baseDelayMilliseconds
        self.maxDelayMilliseconds = maxDelayMilliseconds
        self.jitter = min(1, max(0, jitter))
    }

    /// The delay before retry number `retry` (0-based): base·2^retry capped, minus up to
    /// `jitter` of it, drawn from `random` (a value in 0..<1).
    public func delayMilliseconds(beforeRetry retry: Int, random: Double) -> Int {
        let exponential = baseDelayMilliseconds << min(retry, 20)
        let capped = Double(min(maxDelayMilliseconds, exponential))
        return Int((capped * (1 - jitter * random)).rounded())
    }
}

extension ServiceConfig {
    /// Retries of transient upstream failures: connection errors, timeouts, 5xx
    /// (`"retry"` in the config file). 404 and rate limits are never retried.
    struct RetryPolicy: Sendable, Equatable {
        /// Retries after the first attempt; the contract requires at least 2.
        var maxRetries = 2
        /// Delay before the first retry; each further retry doubles it.
        var baseDelay: Duration = .milliseconds(200)
    }
}

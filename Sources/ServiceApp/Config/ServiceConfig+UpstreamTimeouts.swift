extension ServiceConfig {
    /// Timeouts and the connection pool of requests to the GitHub API (`"upstream"` in the
    /// config file).
    struct UpstreamTimeouts: Sendable, Equatable {
        /// Time to establish the connection (TCP and TLS).
        var connect: Duration = .seconds(5)
        /// Time for a whole request, connection included.
        var request: Duration = .seconds(10)
        /// Connections kept to the upstream host; requests beyond wait for one. Over HTTP/1.1
        /// each carries one request at a time, so this bounds the lookups in flight (the session
        /// load benchmark needs ~175 for 1,000 typing sessions at 50 ms upstream latency).
        var maxConnections = 256
        /// Requests in flight to GitHub at most (GitHub documents 100 concurrent requests as a
        /// secondary rate limit, so never above it); the rest wait in arrival order.
        var maxConcurrentRequests = 8
    }
}

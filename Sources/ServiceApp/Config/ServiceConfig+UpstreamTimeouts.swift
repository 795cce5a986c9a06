extension ServiceConfig {
    /// Timeouts of requests to the GitHub API (`"upstream"` in the config file).
    struct UpstreamTimeouts: Sendable, Equatable {
        /// Time to establish the connection (TCP and TLS).
        var connect: Duration = .seconds(5)
        /// Time for a whole request, connection included.
        var request: Duration = .seconds(10)
    }
}

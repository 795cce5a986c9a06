extension ServiceConfig {
    /// Limits and timeouts of HTTP/1.1 connections (`"http"` in the config file).
    struct HTTPLimits: Sendable, Equatable {
        /// Request line plus headers; larger requests get `431`.
        var maxHeaderBytes = 16_384
        /// Request body; larger bodies get `413`.
        var maxBodyBytes = 1_048_576
        /// Time allowed to receive a request's headers before the connection is closed (`408`).
        var headerReadTimeout: Duration = .seconds(10)
        /// An idle keep-alive connection is closed after this long.
        var keepAliveIdleTimeout: Duration = .seconds(60)
    }
}

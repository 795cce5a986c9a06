extension ServiceConfig {
    /// The "Fair use" settings: `trustedProxies`, `allowedOrigins` and the `"limits"` group.
    struct FairUseSettings: Sendable, Equatable {
        /// Peers whose `X-Forwarded-For` / `Forwarded` name the client (addresses or CIDR ranges).
        var trustedProxies: [IPAddressRange] = []
        /// Browser origins besides the service's own that may open WebSockets (`"*"`: any).
        var allowedOrigins: [String] = []
        /// Open WebSocket sessions per client.
        var sessionsPerClient = 16
        /// Upstream lookups per client and minute (a token bucket of that size).
        var lookupsPerClientPerMinute = 60
        /// Clients remembered at most (see `ClientLimiter`).
        var maxTrackedClients = 100_000

        var limiterSettings: ClientLimiter.Settings {
            .init(sessionsPerClient: sessionsPerClient, lookupsPerMinute: lookupsPerClientPerMinute, maxClients: maxTrackedClients)
        }
    }
}

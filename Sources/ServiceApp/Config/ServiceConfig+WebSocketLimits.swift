extension ServiceConfig {
    /// Limits of WebSocket sessions (`"webSocket"` in the config file).
    struct WebSocketLimits: Sendable, Equatable {
        /// Largest message (after reassembly and decompression); larger ones close with 1009.
        /// 16 MiB by default: the Autobahn TestSuite echoes messages of that size.
        var maxMessageBytes = 16_777_216
        /// Interval of server pings; `.zero` disables them.
        var pingInterval: Duration = .seconds(30)
        /// A session that receives nothing (not even a pong) for this long is closed; `.zero` disables.
        var idleTimeout: Duration = .seconds(120)
        /// Unwritten bytes for a client that does not read before its session is closed with 1008.
        var outboundLimitBytes = 4_194_304
        /// Whether permessage-deflate (RFC 7692) is negotiated when a client offers it.
        var compression = true
    }
}

import HTTPServer

extension ServiceConfig {
    /// The HTTP server's settings.
    var serverConfiguration: HTTPServerConfiguration {
        var limits = HTTPParserLimits()
        limits.maxHeaderBytes = http.maxHeaderBytes
        limits.maxBodyBytes = http.maxBodyBytes
        return HTTPServerConfiguration(
            host: host, port: UInt16(port), timerSlack: timerSlack, maxConnections: maxConnections, parserLimits: limits,
            requestReadTimeout: http.headerReadTimeout, idleTimeout: http.keepAliveIdleTimeout,
            drainTimeout: drainTimeout,
            webSocket: WebSocketConfiguration(
                maxMessageBytes: webSocket.maxMessageBytes,
                deflate: webSocket.compression ? PerMessageDeflateConfiguration() : nil,
                pingInterval: webSocket.pingInterval,
                idleTimeout: webSocket.idleTimeout,
                outboundLimitBytes: webSocket.outboundLimitBytes
            )
        )
    }
}

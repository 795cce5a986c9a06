import HTTPServer

extension ServiceConfig {
    /// The HTTP server's settings.
    var serverConfiguration: HTTPServerConfiguration {
        var limits = HTTPParserLimits()
        limits.maxHeaderBytes = http.maxHeaderBytes
        limits.maxBodyBytes = http.maxBodyBytes
        return HTTPServerConfiguration(
            host: host, port: UInt16(port), maxConnections: maxConnections, parserLimits: limits,
            requestReadTimeout: http.headerReadTimeout.timeInterval, idleTimeout: http.keepAliveIdleTimeout.timeInterval,
            drainTimeout: drainTimeout.timeInterval,
            webSocket: WebSocketConfiguration(
                maxMessageBytes: webSocket.maxMessageBytes,
                deflate: webSocket.compression ? PerMessageDeflateConfiguration() : nil,
                pingInterval: webSocket.pingInterval.timeInterval,
                idleTimeout: webSocket.idleTimeout.timeInterval,
                outboundLimitBytes: webSocket.outboundLimitBytes
            )
        )
    }
}

/// Everything an `HTTPServer` can be told; every limit has a safe default.
public struct HTTPServerConfiguration: Sendable {
    /// Numeric address to bind (`0.0.0.0`, `::`, `127.0.0.1`).
    public var host: String
    /// Port to bind; 0 picks a free one (see `HTTPServer.start()`'s result).
    public var port: UInt16
    public var backlog: Int32
    /// Event loops (one thread each); connections are spread over them. Default: the cores this
    /// process may use (`AvailableCores.count`).
    public var loopCount: Int
    /// How long after its deadline a loop's timer (a pipeline's throttle, say) may fire, so that
    /// timers due close together, or close to the next readable socket, share one wake-up of the
    /// loop. Zero (the default): each fires at its deadline, as near as the kernel can.
    public var timerSlack: Duration
    /// Connections beyond this are closed as soon as they are accepted.
    public var maxConnections: Int
    /// Request line, header and body limits (414/431/413).
    public var parserLimits: HTTPParserLimits
    /// A request must arrive completely within this time of its first byte (408 otherwise).
    public var requestReadTimeout: Duration
    /// A keep-alive connection with no request for this long is closed.
    public var idleTimeout: Duration
    /// Compress responses with gzip when the client accepts it and the body is worth it.
    public var compression: Bool
    /// How long a graceful shutdown waits for in-flight work before closing everything.
    public var drainTimeout: Duration
    public var webSocket: WebSocketConfiguration

    public init(
        host: String = "0.0.0.0", port: UInt16 = 8080, backlog: Int32 = 1024,
        loopCount: Int = AvailableCores.count, timerSlack: Duration = .zero, maxConnections: Int = 20_000,
        parserLimits: HTTPParserLimits = HTTPParserLimits(), requestReadTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60), compression: Bool = true, drainTimeout: Duration = .seconds(10),
        webSocket: WebSocketConfiguration = WebSocketConfiguration()
    ) {
        self.host = host
        self.port = port
        self.backlog = backlog
        self.loopCount = loopCount
        self.timerSlack = timerSlack
        self.maxConnections = maxConnections
        self.parserLimits = parserLimits
        self.requestReadTimeout = requestReadTimeout
        self.idleTimeout = idleTimeout
        self.compression = compression
        self.drainTimeout = drainTimeout
        self.webSocket = webSocket
    }
}

/// WebSocket session limits.
public struct WebSocketConfiguration: Sendable {
    /// Largest message accepted (1009 beyond), after decompression.
    public var maxMessageBytes: Int
    /// permessage-deflate policy; nil turns compression off.
    public var deflate: PerMessageDeflateConfiguration?
    /// A ping is sent after this long without a frame from the client (zero: never).
    public var pingInterval: Duration
    /// The connection is closed when nothing (not even a pong) arrives for this long (not
    /// counting time when reading is paused because the application is behind; zero: never).
    public var idleTimeout: Duration
    /// After our close frame, how long to wait for the client's before closing the socket.
    public var closeTimeout: Duration
    /// Inbound messages kept while the application has no demand; reading pauses beyond.
    public var inboundQueueMessages: Int
    /// Outbound messages requested ahead from the session's publisher.
    public var outboundWindow: Int
    /// Unwritten bytes above which the session stops asking its publisher for more.
    public var outboundHighWaterBytes: Int
    /// Unwritten bytes above which a slow client is disconnected (1008), for messages sent with
    /// `send(_:)` outside back pressure.
    public var outboundLimitBytes: Int

    public init(
        maxMessageBytes: Int = 16 << 20, deflate: PerMessageDeflateConfiguration? = PerMessageDeflateConfiguration(),
        pingInterval: Duration = .seconds(30), idleTimeout: Duration = .seconds(75), closeTimeout: Duration = .seconds(5),
        inboundQueueMessages: Int = 16, outboundWindow: Int = 16, outboundHighWaterBytes: Int = 256 << 10,
        outboundLimitBytes: Int = 4 << 20
    ) {
        self.maxMessageBytes = maxMessageBytes
        self.deflate = deflate
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
        self.closeTimeout = closeTimeout
        self.inboundQueueMessages = inboundQueueMessages
        self.outboundWindow = outboundWindow
        self.outboundHighWaterBytes = outboundHighWaterBytes
        self.outboundLimitBytes = outboundLimitBytes
    }
}

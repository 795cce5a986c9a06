/// How a `WebSocketClient` connects and what it accepts. Every limit is checked before memory
/// is allocated for what it limits.
public struct WebSocketClientConfiguration: Sendable {
    /// The largest message accepted from the server, in bytes (after decompression); a larger
    /// one fails the connection with 1009.
    public var maxMessageBytes: Int
    /// The longest response head accepted for the opening handshake.
    public var maxResponseHeadBytes: Int
    /// The longest body read from a refused upgrade (a 403, a 429) for the error.
    public var maxRejectionBodyBytes: Int
    /// How long the TCP connect may take.
    public var connectTimeout: Duration
    /// How long the server may take to answer the upgrade once connected.
    public var handshakeTimeout: Duration
    /// After a close frame, how long to wait for the other close frame, then for the server to
    /// close the TCP connection (RFC 6455 §7.1.1), before closing it ourselves.
    public var closeTimeout: Duration
    /// Ping the server after this long without a frame from it; nil: no pings.
    public var pingInterval: Duration?
    /// Close the connection after this long without a frame from the server (pings
    /// included); nil: never.
    public var idleTimeout: Duration?
    /// permessage-deflate to offer (RFC 7692): the client side of the policy (see
    /// `PerMessageDeflateConfiguration`); nil: no compression.
    public var deflate: PerMessageDeflateConfiguration?
    /// Sent as `Origin` when set (browsers always send one; servers may check it).
    public var origin: String?
    /// Further request header fields (an `Authorization`, a `User-Agent`…).
    public var headers: HTTPHeaders
    /// The local address to connect from (its port 0: any); nil lets the system choose.
    public var localAddress: SocketAddress?

    public init(
        maxMessageBytes: Int = 16 << 20, maxResponseHeadBytes: Int = 16 << 10, maxRejectionBodyBytes: Int = 16 << 10,
        connectTimeout: Duration = .seconds(10), handshakeTimeout: Duration = .seconds(10), closeTimeout: Duration = .seconds(5),
        pingInterval: Duration? = nil, idleTimeout: Duration? = nil,
        deflate: PerMessageDeflateConfiguration? = PerMessageDeflateConfiguration(), origin: String? = nil,
        headers: HTTPHeaders = [:], localAddress: SocketAddress? = nil
    ) {
        self.maxMessageBytes = max(0, maxMessageBytes)
        self.maxResponseHeadBytes = maxResponseHeadBytes
        self.maxRejectionBodyBytes = max(0, maxRejectionBodyBytes)
        self.connectTimeout = connectTimeout
        self.handshakeTimeout = handshakeTimeout
        self.closeTimeout = closeTimeout
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
        self.deflate = deflate
        self.origin = origin
        self.headers = headers
        self.localAddress = localAddress
    }

    /// The protocol state machine's timers.
    var timing: WebSocketStateMachine.Timing {
        .init(pingInterval: pingInterval, idleTimeout: idleTimeout, closeTimeout: closeTimeout)
    }
}

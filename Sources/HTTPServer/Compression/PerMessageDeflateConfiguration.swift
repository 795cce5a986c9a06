import CZlib

/// One end's permessage-deflate policy (RFC 7692). A server uses it to decide what it asks
/// for or accepts when a client offers the extension; a `WebSocketClient` builds its offer from
/// it (`PerMessageDeflateNegotiation.offer(_:)`): `serverNoContextTakeover` and
/// `serverMaxWindowBits` below 15 are then requests to the server, `clientNoContextTakeover`
/// and `clientMaxWindowBits` what the client itself will keep to.
public struct PerMessageDeflateConfiguration: Sendable, Equatable {
    /// Always reset our compressor between messages (and say so with `server_no_context_takeover`).
    public var serverNoContextTakeover: Bool
    /// Ask the client to reset its compressor between messages (`client_no_context_takeover`).
    public var clientNoContextTakeover: Bool
    /// The largest window our compressor uses (8...15); answered as `server_max_window_bits`.
    public var serverMaxWindowBits: Int
    /// The window we ask the client to limit itself to, when it offers `client_max_window_bits`
    /// (8...15); nil leaves the client's choice.
    public var clientMaxWindowBits: Int?
    /// zlib level for outgoing messages; 1 (fastest) by default: WebSocket messages are small and
    /// latency matters more than the last percent of ratio.
    public var compressionLevel: Int32
    /// zlib memLevel (1...9).
    public var memoryLevel: Int32
    /// Messages shorter than this many bytes are sent uncompressed. 0 (the default) compresses
    /// every message: RFC 7692 allows either, but some clients mishandle uncompressed frames in a
    /// compressed session (the Autobahn runner kosoku, for one).
    public var minimumCompressedSize: Int

    public init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
        serverMaxWindowBits: Int = 15, clientMaxWindowBits: Int? = nil,
        compressionLevel: Int32 = 1, memoryLevel: Int32 = 8, minimumCompressedSize: Int = 0
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = min(max(serverMaxWindowBits, 8), 15)
        self.clientMaxWindowBits = clientMaxWindowBits.map { min(max($0, 8), 15) }
        self.compressionLevel = compressionLevel
        self.memoryLevel = memoryLevel
        self.minimumCompressedSize = minimumCompressedSize
    }
}

/// The permessage-deflate parameters agreed for one connection.
public struct PerMessageDeflateParameters: Sendable, Equatable {
    /// The server resets its compressor after every message.
    public var serverNoContextTakeover: Bool
    /// The client resets its compressor after every message, so our decompressor may too.
    public var clientNoContextTakeover: Bool
    /// The window the server compresses with (8...15).
    public var serverMaxWindowBits: Int
    /// The largest window the client may compress with (8...15).
    public var clientMaxWindowBits: Int

    public init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
        serverMaxWindowBits: Int = 15, clientMaxWindowBits: Int = 15
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
    }
}

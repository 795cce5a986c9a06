/// The permessage-deflate state of one connection (RFC 7692): decompresses the peer's messages
/// and compresses ours, keeping or resetting each side's sliding window as negotiated. The
/// `role` says which of the agreed parameters describe our side: a server compresses with the
/// `server_*` parameters and inflates with the `client_*` ones, a client the other way round.
/// Owned by one connection; not thread-safe.
public final class PerMessageDeflate {
    /// The tail removed by the sender's sync flush, appended again before inflating.
    private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    public let parameters: PerMessageDeflateParameters
    /// Our end of the connection.
    public let role: WebSocketRole
    /// Messages shorter than this are sent uncompressed.
    public var minimumCompressedSize: Int
    private let inflater: ZlibInflater
    private let deflater: ZlibDeflater
    /// The peer resets its compressor after every message, so we reset our inflater.
    private let peerNoContextTakeover: Bool
    /// We reset our compressor after every message.
    private let ownNoContextTakeover: Bool
    /// Whether we may compress at all: zlib cannot make a raw stream with an 8-bit window, so
    /// an end held to 8 bits sends its messages uncompressed (RFC 7692 lets a sender do so).
    private let canCompress: Bool

    /// Creates the codec for agreed `parameters`, for our `role`; nil only if zlib cannot
    /// initialise.
    public init?(
        parameters: PerMessageDeflateParameters, role: WebSocketRole = .server,
        configuration: PerMessageDeflateConfiguration = .init()
    ) {
        let peerBits = role == .server ? parameters.clientMaxWindowBits : parameters.serverMaxWindowBits
        let ownBits = role == .server ? parameters.serverMaxWindowBits : parameters.clientMaxWindowBits
        // A zlib peer told 8 bits compresses with 9 (zlib rounds raw 8 up): inflate with 9+.
        guard let inflater = ZlibInflater(windowBits: max(peerBits, 9)),
              let deflater = ZlibDeflater(
                windowBits: ownBits, level: configuration.compressionLevel,
                memoryLevel: configuration.memoryLevel)
        else { return nil }
        self.parameters = parameters
        self.role = role
        self.minimumCompressedSize = configuration.minimumCompressedSize
        self.inflater = inflater
        self.deflater = deflater
        peerNoContextTakeover = role == .server ? parameters.clientNoContextTakeover : parameters.serverNoContextTakeover
        ownNoContextTakeover = role == .server ? parameters.serverNoContextTakeover : parameters.clientNoContextTakeover
        // The server's deflater has always used 9 bits when asked for 8 (zlib's own rounding,
        // which every zlib-based client inflates); a client held to 8 by a server must not.
        canCompress = role == .server || ownBits > 8
    }

    // MARK: Inbound

    /// Decompresses one frame of a compressed message, appending to `output`. Pass
    /// `isFinal` for the message's last frame, which also ends the message's stream.
    /// Throws `.messageTooBig` the moment `output` would pass `limit` bytes.
    public func decompress(
        _ payload: UnsafeRawBufferPointer, isFinal: Bool, into output: inout [UInt8], limit: Int
    ) throws(WebSocketError) {
        do throws(WebSocketError) {
            try inflater.inflate(payload, into: &output, limit: limit)
            if isFinal {
                let result = Self.tail.withUnsafeBytes { tail in
                    Result { () throws(WebSocketError) in try inflater.inflate(tail, into: &output, limit: limit) }
                }
                try result.get()
                endInboundMessage()
            }
        } catch {
            inflater.reset()
            throw error
        }
    }

    /// Decompresses one frame of a compressed message (see the raw-buffer variant).
    public func decompress(_ payload: [UInt8], isFinal: Bool, into output: inout [UInt8], limit: Int) throws(WebSocketError) {
        let result = payload.withUnsafeBytes { raw in
            Result { () throws(WebSocketError) in try decompress(raw, isFinal: isFinal, into: &output, limit: limit) }
        }
        try result.get()
    }

    private func endInboundMessage() {
        if peerNoContextTakeover {
            inflater.reset()
        } else {
            inflater.restartKeepingWindow()
        }
    }

    // MARK: Outbound

    /// Whether a message of `length` bytes is worth compressing.
    public func shouldCompress(length: Int) -> Bool { canCompress && length >= minimumCompressedSize }

    /// Compresses a whole message (without the sync-flush tail) for a frame with RSV1 set.
    public func compress(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(message.count / 2 + 16)
        deflater.compressMessage(message, into: &output)
        if ownNoContextTakeover { deflater.reset() }
        return output
    }

    /// Compresses a whole message (see the raw-buffer variant).
    public func compress(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { compress($0) }
    }
}

/// The inbound side of a server WebSocket connection: bytes in, messages out. Combines a
/// `WebSocketFrameDecoder` and a `WebSocketMessageAssembler` with consistent limits.
///
/// ```swift
/// reader.append(chunk)
/// while let message = try reader.nextMessage() { … }
/// ```
/// On a thrown `WebSocketError`, send a close frame with its `closeCode` and stop reading.
public struct WebSocketReader {
    private var decoder: WebSocketFrameDecoder
    private var assembler: WebSocketMessageAssembler

    /// Creates a reader; `deflate` is the negotiated permessage-deflate state, if any.
    public init(maxMessageSize: Int = 16 << 20, deflate: PerMessageDeflate? = nil) {
        let limit = max(0, maxMessageSize)
        // A compressed frame can be slightly larger than its content (stored blocks).
        let frameLimit = deflate == nil ? limit : (limit > Int.max / 2 ? Int.max : limit + limit / 8 + 1024)
        decoder = WebSocketFrameDecoder(maxFramePayload: frameLimit, allowsCompressionBit: deflate != nil)
        assembler = WebSocketMessageAssembler(maxMessageSize: limit, deflate: deflate)
    }

    /// Consumes a chunk of bytes from the connection.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) { decoder.append(bytes) }

    /// Consumes a chunk of bytes from the connection.
    public mutating func append(_ bytes: [UInt8]) { decoder.append(bytes) }

    /// The next complete message or control frame, nil when more bytes are needed. After a
    /// close frame it returns nil for ever: nothing after a close is read.
    public mutating func nextMessage() throws(WebSocketError) -> WebSocketMessage? {
        while !assembler.hasReceivedClose, let frame = try decoder.nextFrame() {
            if let message = try assembler.receive(frame) { return message }
        }
        return nil
    }
}

/// The inbound side of a WebSocket connection (either end): bytes in, messages out. Combines a
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
    /// Early UTF-8 check of the text frame still arriving (see `checkPartialText`).
    private var lookahead: UTF8Validator?
    private var lookaheadSerial = -1
    private var lookaheadCount = 0

    /// Creates a reader for our `role` (a server reads masked frames, a client unmasked ones);
    /// `deflate` is the negotiated permessage-deflate state, if any.
    public init(maxMessageSize: Int = 16 << 20, deflate: PerMessageDeflate? = nil, role: WebSocketRole = .server) {
        let limit = max(0, maxMessageSize)
        // A compressed frame can be slightly larger than its content (stored blocks).
        let frameLimit = deflate == nil ? limit : (limit > Int.max / 2 ? Int.max : limit + limit / 8 + 1024)
        decoder = WebSocketFrameDecoder(maxFramePayload: frameLimit, role: role, allowsCompressionBit: deflate != nil)
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
        if !assembler.hasReceivedClose { try checkPartialText() }
        return nil
    }

    /// Validates the text bytes of a frame that has not fully arrived, so invalid UTF-8
    /// fails the connection as soon as it is certain (the assembler checks again, in full,
    /// when the frame completes).
    private mutating func checkPartialText() throws(WebSocketError) {
        guard let partial = decoder.partialFrame else { return }
        if partial.serial != lookaheadSerial {
            lookaheadSerial = partial.serial
            lookahead = assembler.textValidator(forFrame: partial.opcode, rsv1: partial.rsv1)
            lookaheadCount = 0
        }
        guard var validator = lookahead, partial.payload.count > lookaheadCount else { return }
        let fresh = partial.payload.dropFirst(lookaheadCount)
        let valid = fresh.withUnsafeBytes { validator.validate($0) }
        lookahead = validator
        lookaheadCount = partial.payload.count
        guard valid else { throw .invalidPayload("text message is not valid UTF-8") }
    }
}

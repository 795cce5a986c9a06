/// Turns decoded frames into messages (RFC 6455 sections 5.4-5.5, RFC 7692): enforces the
/// fragmentation rules (1002), validates text as UTF-8 across fragments as it arrives (1007),
/// bounds the message size (1009, checked on the decompressed size), decompresses
/// permessage-deflate messages and parses close frames (1002 for a bad code, 1007 for a
/// bad reason). Control frames may arrive between the fragments of a message.
public struct WebSocketMessageAssembler {
    /// The largest message accepted, in bytes (after decompression).
    public var maxMessageSize: Int
    /// The negotiated permessage-deflate state, if any.
    public let deflate: PerMessageDeflate?

    private var messageOpcode: WebSocketOpcode?
    private var compressed = false
    private var buffer: [UInt8] = []
    private var validator = UTF8Validator()
    private var closeReceived = false

    /// Creates an assembler with a message size limit (default 16 MiB) and optional compression.
    public init(maxMessageSize: Int = 16 << 20, deflate: PerMessageDeflate? = nil) {
        self.maxMessageSize = max(0, maxMessageSize)
        self.deflate = deflate
    }

    /// Whether a close frame was received (later frames are ignored).
    public var hasReceivedClose: Bool { closeReceived }

    /// The UTF-8 state a frame with this header would continue from, if it carries
    /// uncompressed text: lets a reader reject invalid text before the frame is complete.
    public func textValidator(forFrame opcode: WebSocketOpcode, rsv1: Bool) -> UTF8Validator? {
        switch opcode {
        case .text where !rsv1 && messageOpcode == nil: return UTF8Validator()
        case .continuation where messageOpcode == .text && !compressed: return validator
        default: return nil
        }
    }

    /// Whether a fragmented message is in progress.
    public var isAssembling: Bool { messageOpcode != nil }

    /// Takes the next frame; returns a message when one is complete. Frames after a close
    /// frame are ignored.
    public mutating func receive(_ frame: WebSocketFrame) throws(WebSocketError) -> WebSocketMessage? {
        guard !closeReceived else { return nil }
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close:
            let message = try Self.parseClose(frame.payload)
            closeReceived = true
            return message
        case .text, .binary:
            guard messageOpcode == nil else {
                throw .protocolError("new data frame while a fragmented message is in progress")
            }
            if frame.rsv1, deflate == nil { throw .protocolError("RSV1 set without permessage-deflate") }
            messageOpcode = frame.opcode
            compressed = frame.rsv1
            validator.reset()
            return try add(frame)
        case .continuation:
            guard messageOpcode != nil else { throw .protocolError("continuation frame without a message to continue") }
            guard !frame.rsv1 else { throw .protocolError("RSV1 set on a continuation frame") }
            return try add(frame)
        default:
            throw .protocolError("reserved opcode \(frame.opcode.rawValue)")
        }
    }

    private mutating func add(_ frame: WebSocketFrame) throws(WebSocketError) -> WebSocketMessage? {
        let isText = messageOpcode == .text
        if compressed, let deflate {
            let start = buffer.count
            try deflate.decompress(frame.payload, isFinal: frame.fin, into: &buffer, limit: maxMessageSize)
            if isText {
                let valid = buffer.withUnsafeBytes { validator.validate(UnsafeRawBufferPointer(rebasing: $0[start...])) }
                guard valid else { throw .invalidPayload("text message is not valid UTF-8") }
            }
        } else {
            guard frame.payload.count <= maxMessageSize - buffer.count else {
                throw .messageTooBig("message exceeds \(maxMessageSize) bytes")
            }
            if isText, !validator.validate(frame.payload) { throw .invalidPayload("text message is not valid UTF-8") }
            if buffer.isEmpty, frame.fin {
                buffer = frame.payload // a single-frame message: no copy
            } else {
                BoundedGrowth.reserve(&buffer, adding: frame.payload.count, limit: maxMessageSize)
                buffer.append(contentsOf: frame.payload)
            }
        }
        guard frame.fin else { return nil }
        let bytes = buffer
        buffer = []
        messageOpcode = nil
        compressed = false
        guard isText else { return .binary(bytes) }
        guard validator.isComplete else { throw .invalidPayload("text message ends inside a UTF-8 sequence") }
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    /// Parses a close frame payload: optional 2-byte code, then a UTF-8 reason.
    static func parseClose(_ payload: [UInt8]) throws(WebSocketError) -> WebSocketMessage {
        guard !payload.isEmpty else { return .close(code: .noStatusReceived, reason: "") }
        guard payload.count >= 2 else { throw .protocolError("close frame with a 1-byte payload") }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnWire else { throw .protocolError("invalid close code \(code.rawValue)") }
        let reason = Array(payload[2...])
        guard UTF8Validator.isValid(reason) else { throw .invalidPayload("close reason is not valid UTF-8") }
        return .close(code: code, reason: String(decoding: reason, as: UTF8.self))
    }
}

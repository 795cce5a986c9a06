/// The outbound side of a WebSocket connection: messages in, frame bytes out, compressed with
/// permessage-deflate when negotiated and worth it. A client's writer masks every frame with a
/// fresh random key (RFC 6455 §5.3); a server's never masks.
public struct WebSocketWriter {
    /// The negotiated permessage-deflate state, if any.
    public let deflate: PerMessageDeflate?
    /// Our end of the connection.
    public let role: WebSocketRole

    public init(deflate: PerMessageDeflate? = nil, role: WebSocketRole = .server) {
        self.deflate = deflate
        self.role = role
    }

    /// The masking key of the next frame: nil for a server, unpredictable for a client
    /// (`SystemRandomNumberGenerator`, the kernel's random source).
    private var maskingKey: UInt32? {
        role == .client ? UInt32.random(in: .min ... .max) : nil
    }

    /// Appends a text message frame to `buffer`.
    public func writeText(_ text: String, into buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { writeData(opcode: .text, UnsafeRawBufferPointer($0), into: &buffer) }
    }

    /// Appends a binary message frame to `buffer`.
    public func writeBinary(_ bytes: [UInt8], into buffer: inout [UInt8]) {
        bytes.withUnsafeBytes { writeData(opcode: .binary, $0, into: &buffer) }
    }

    /// Appends a data message frame (text or binary) with the payload given as raw bytes.
    public func writeData(opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer, into buffer: inout [UInt8]) {
        if let deflate, deflate.shouldCompress(length: payload.count) {
            let compressed = deflate.compress(payload)
            WebSocketFrameEncoder.encode(rsv1: true, opcode: opcode, payload: compressed, maskingKey: maskingKey, into: &buffer)
        } else {
            WebSocketFrameEncoder.encode(opcode: opcode, payload: payload, maskingKey: maskingKey, into: &buffer)
        }
    }

    /// Appends a ping; payloads over 125 bytes are truncated to 125.
    public func writePing(_ payload: [UInt8] = [], into buffer: inout [UInt8]) {
        WebSocketFrameEncoder.encode(opcode: .ping, payload: Array(payload.prefix(125)), maskingKey: maskingKey, into: &buffer)
    }

    /// Appends a pong; payloads over 125 bytes are truncated to 125.
    public func writePong(_ payload: [UInt8] = [], into buffer: inout [UInt8]) {
        WebSocketFrameEncoder.encode(opcode: .pong, payload: Array(payload.prefix(125)), maskingKey: maskingKey, into: &buffer)
    }

    /// Appends a close frame (empty for `.noStatusReceived`; long reasons are truncated).
    public func writeClose(code: WebSocketCloseCode, reason: String = "", into buffer: inout [UInt8]) {
        let payload = WebSocketFrameEncoder.closePayload(code: code, reason: reason)
        WebSocketFrameEncoder.encode(opcode: .close, payload: payload, maskingKey: maskingKey, into: &buffer)
    }
}

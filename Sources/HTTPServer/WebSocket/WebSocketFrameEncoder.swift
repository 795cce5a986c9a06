/// Writes WebSocket frames (RFC 6455 section 5.2): a server's frames are unmasked; a masking
/// key can be given for client frames (tests, clients).
public enum WebSocketFrameEncoder {
    /// The header length for a payload of `length` bytes.
    public static func headerLength(payloadLength length: Int, masked: Bool = false) -> Int {
        let base = length < 126 ? 2 : (length <= 0xFFFF ? 4 : 10)
        return masked ? base + 4 : base
    }

    /// Appends a frame header to `buffer`.
    public static func writeHeader(
        fin: Bool = true, rsv1: Bool = false, opcode: WebSocketOpcode, payloadLength length: Int,
        maskingKey: UInt32? = nil, into buffer: inout [UInt8]
    ) {
        var b0 = opcode.rawValue
        if fin { b0 |= 0x80 }
        if rsv1 { b0 |= 0x40 }
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        buffer.append(b0)
        if length < 126 {
            buffer.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            buffer.append(maskBit | 126)
            buffer.append(UInt8(truncatingIfNeeded: length >> 8))
            buffer.append(UInt8(truncatingIfNeeded: length))
        } else {
            buffer.append(maskBit | 127)
            let wide = UInt64(length)
            for shift in stride(from: 56, through: 0, by: -8) {
                buffer.append(UInt8(truncatingIfNeeded: wide >> UInt64(shift)))
            }
        }
        if let maskingKey {
            withUnsafeBytes(of: maskingKey) { buffer.append(contentsOf: $0) }
        }
    }

    /// Appends a whole frame (header and payload, masked if a key is given) to `buffer`.
    public static func encode(
        fin: Bool = true, rsv1: Bool = false, opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer,
        maskingKey: UInt32? = nil, into buffer: inout [UInt8]
    ) {
        buffer.reserveCapacity(buffer.count + headerLength(payloadLength: payload.count, masked: maskingKey != nil) + payload.count)
        writeHeader(fin: fin, rsv1: rsv1, opcode: opcode, payloadLength: payload.count, maskingKey: maskingKey, into: &buffer)
        let start = buffer.count
        buffer.append(contentsOf: payload)
        if let maskingKey { WebSocketMasking.apply(key: maskingKey, to: &buffer, from: start) }
    }

    /// Appends a whole frame to `buffer`.
    public static func encode(
        fin: Bool = true, rsv1: Bool = false, opcode: WebSocketOpcode, payload: [UInt8],
        maskingKey: UInt32? = nil, into buffer: inout [UInt8]
    ) {
        payload.withUnsafeBytes {
            encode(fin: fin, rsv1: rsv1, opcode: opcode, payload: $0, maskingKey: maskingKey, into: &buffer)
        }
    }

    /// A complete frame as a new byte array.
    public static func frame(
        fin: Bool = true, rsv1: Bool = false, opcode: WebSocketOpcode, payload: [UInt8], maskingKey: UInt32? = nil
    ) -> [UInt8] {
        var buffer: [UInt8] = []
        encode(fin: fin, rsv1: rsv1, opcode: opcode, payload: payload, maskingKey: maskingKey, into: &buffer)
        return buffer
    }

    /// A close frame: empty for `.noStatusReceived`, else the code and the reason truncated
    /// (at a character boundary) so the payload fits the 125-byte control frame limit.
    public static func closeFrame(code: WebSocketCloseCode, reason: String = "", maskingKey: UInt32? = nil) -> [UInt8] {
        frame(opcode: .close, payload: closePayload(code: code, reason: reason), maskingKey: maskingKey)
    }

    /// The payload of a close frame (see `closeFrame`).
    public static func closePayload(code: WebSocketCloseCode, reason: String = "") -> [UInt8] {
        guard code != .noStatusReceived else { return [] }
        var payload: [UInt8] = [UInt8(truncatingIfNeeded: code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)]
        var utf8 = Array(reason.utf8)
        if utf8.count > 123 {
            var end = 123
            while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
            utf8.removeSubrange(end...)
        }
        payload.append(contentsOf: utf8)
        return payload
    }
}

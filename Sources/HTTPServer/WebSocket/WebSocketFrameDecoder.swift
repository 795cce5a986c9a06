/// Incremental decoder of WebSocket frames (RFC 6455 section 5.2), for either end: a server
/// requires masked frames (`requireMasking`), a client refuses them (`forbidMasking`).
///
/// Feed byte chunks split anywhere with `append(_:)`, then drain frames with `nextFrame()`.
/// Frame-level rules are enforced as soon as the bytes that break them arrive: masking,
/// reserved bits and opcodes, control-frame size and fragmentation, 64-bit lengths with the
/// top bit set (all 1002), and payloads over `maxFramePayload` (1009). Payload memory grows
/// only as payload bytes arrive. After an error the decoder consumes nothing more.
public struct WebSocketFrameDecoder: Sendable {
    /// The largest payload accepted for one frame, in bytes.
    public var maxFramePayload: Int
    /// Whether frames must be masked (true for a server reading client frames).
    public var requireMasking: Bool
    /// Whether masked frames are refused (true for a client reading server frames, §5.1).
    public var forbidMasking = false
    /// Whether RSV1 may be set on the first frame of a data message (permessage-deflate).
    public var allowsCompressionBit: Bool

    private var header: [UInt8] = []
    private var headerNeeded = 2
    private var inPayload = false
    private var fin = false
    private var rsv1 = false
    private var opcode = WebSocketOpcode.continuation
    private var payloadLength = 0
    private var masked = false
    private var maskKey: UInt32 = 0
    private var payload: [UInt8] = []
    private var ready: [WebSocketFrame] = []
    private var readyIndex = 0
    private var failure: WebSocketError?
    private var frameSerial = 0

    /// Creates a decoder. `maxFramePayload` bounds one frame's payload (default 16 MiB).
    public init(maxFramePayload: Int = 16 << 20, requireMasking: Bool = true, allowsCompressionBit: Bool = false) {
        self.maxFramePayload = max(0, maxFramePayload)
        self.requireMasking = requireMasking
        self.allowsCompressionBit = allowsCompressionBit
        header.reserveCapacity(14)
    }

    /// Creates a decoder of the frames the peer of `role` sends: masked ones for a server,
    /// unmasked ones for a client.
    public init(maxFramePayload: Int = 16 << 20, role: WebSocketRole, allowsCompressionBit: Bool = false) {
        self.init(maxFramePayload: maxFramePayload, requireMasking: role == .server, allowsCompressionBit: allowsCompressionBit)
        forbidMasking = role == .client
    }

    /// Whether bytes of an unfinished frame are buffered.
    public var hasPartialFrame: Bool { inPayload || !header.isEmpty }

    /// The frame whose payload is arriving, with the (unmasked) payload bytes so far, so that
    /// text can be checked before the frame ends. `serial` changes with every frame.
    public var partialFrame: (serial: Int, opcode: WebSocketOpcode, rsv1: Bool, payload: ArraySlice<UInt8>)? {
        guard inPayload, failure == nil else { return nil }
        return (frameSerial, opcode, rsv1, payload[...])
    }

    /// Returns the next complete frame, `nil` if more bytes are needed, or throws the
    /// violation that stopped decoding once the frames before it have been returned.
    public mutating func nextFrame() throws(WebSocketError) -> WebSocketFrame? {
        if readyIndex < ready.count {
            let frame = ready[readyIndex]
            ready[readyIndex].payload = []
            readyIndex += 1
            if readyIndex == ready.count {
                ready.removeAll(keepingCapacity: true)
                readyIndex = 0
            }
            return frame
        }
        if let failure { throw failure }
        return nil
    }

    /// Consumes a chunk of bytes.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Consumes a chunk of bytes.
    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Consumes a chunk of bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        let count = bytes.count
        while index < count, failure == nil {
            if inPayload {
                let take = min(payloadLength - payload.count, count - index)
                let start = payload.count
                payload.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index ..< index + take]))
                if masked {
                    let offset = start
                    payload.withUnsafeMutableBytes { raw in
                        let fresh = UnsafeMutableRawBufferPointer(rebasing: raw[start ..< start + take])
                        WebSocketMasking.apply(key: maskKey, to: fresh, offset: offset)
                    }
                }
                index += take
                if payload.count == payloadLength { finishFrame() }
            } else {
                let take = min(headerNeeded - header.count, count - index)
                header.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index ..< index + take]))
                index += take
                if header.count == 2, headerNeeded == 2 {
                    if let error = validateStart() { failure = error; return }
                }
                if header.count == headerNeeded {
                    if let error = finishHeader(available: count - index) { failure = error; return }
                }
            }
        }
    }

    /// Checks the first two header bytes and sets how many header bytes follow.
    private mutating func validateStart() -> WebSocketError? {
        let b0 = header[0], b1 = header[1]
        fin = b0 & 0x80 != 0
        rsv1 = b0 & 0x40 != 0
        opcode = WebSocketOpcode(rawValue: b0)
        masked = b1 & 0x80 != 0
        let length7 = b1 & 0x7F
        guard opcode.isDefined else { return .protocolError("reserved opcode \(opcode.rawValue)") }
        guard b0 & 0x30 == 0 else { return .protocolError("RSV2/RSV3 set without a negotiated extension") }
        if rsv1 {
            guard allowsCompressionBit else { return .protocolError("RSV1 set without a negotiated extension") }
            guard opcode == .text || opcode == .binary else {
                return .protocolError("RSV1 set on a \(opcode) frame")
            }
        }
        if opcode.isControl {
            guard fin else { return .protocolError("fragmented control frame") }
            guard length7 <= 125 else { return .protocolError("control frame payload over 125 bytes") }
        }
        if requireMasking, !masked { return .protocolError("unmasked client frame") }
        if forbidMasking, masked { return .protocolError("masked server frame") }
        let extended = length7 == 126 ? 2 : (length7 == 127 ? 8 : 0)
        headerNeeded = 2 + extended + (masked ? 4 : 0)
        return nil
    }

    /// Parses the length and mask once the whole header is buffered.
    private mutating func finishHeader(available: Int) -> WebSocketError? {
        let length7 = header[1] & 0x7F
        var cursor = 2
        var length: UInt64
        switch length7 {
        case 126:
            length = UInt64(header[2]) << 8 | UInt64(header[3])
            cursor = 4
        case 127:
            length = 0
            for i in 2 ..< 10 { length = length << 8 | UInt64(header[i]) }
            cursor = 10
            guard length & (1 << 63) == 0 else { return .protocolError("64-bit payload length with the top bit set") }
        default:
            length = UInt64(length7)
        }
        guard length <= UInt64(maxFramePayload) else {
            return .messageTooBig("frame payload of \(length) bytes exceeds \(maxFramePayload)")
        }
        if masked {
            maskKey = MaskKeyBytes.load(header, at: cursor)
        }
        payloadLength = Int(length)
        frameSerial &+= 1
        header.removeAll(keepingCapacity: true)
        headerNeeded = 2
        payload = []
        if payloadLength == 0 {
            finishFrame()
        } else {
            payload.reserveCapacity(min(payloadLength, max(available, 1 << 16)))
            inPayload = true
        }
        return nil
    }

    private mutating func finishFrame() {
        ready.append(WebSocketFrame(fin: fin, rsv1: rsv1, opcode: opcode, payload: payload))
        payload = []
        inPayload = false
    }
}

/// Reads a masking key out of a header buffer.
private enum MaskKeyBytes {
    static func load(_ header: [UInt8], at offset: Int) -> UInt32 {
        WebSocketMasking.key((header[offset], header[offset + 1], header[offset + 2], header[offset + 3]))
    }
}

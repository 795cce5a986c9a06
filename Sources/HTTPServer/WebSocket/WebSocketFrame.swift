/// One decoded WebSocket frame, its payload already unmasked.
public struct WebSocketFrame: Sendable, Equatable {
    /// Whether this is the final fragment of a message.
    public var fin: Bool
    /// RSV1: with permessage-deflate, set on the first frame of a compressed message.
    public var rsv1: Bool
    public var rsv2: Bool
    public var rsv3: Bool
    public var opcode: WebSocketOpcode
    /// The application data (unmasked).
    public var payload: [UInt8]

    public init(
        fin: Bool = true, rsv1: Bool = false, rsv2: Bool = false, rsv3: Bool = false,
        opcode: WebSocketOpcode, payload: [UInt8] = []
    ) {
        self.fin = fin
        self.rsv1 = rsv1
        self.rsv2 = rsv2
        self.rsv3 = rsv3
        self.opcode = opcode
        self.payload = payload
    }
}

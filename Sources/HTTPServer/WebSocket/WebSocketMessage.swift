/// A complete WebSocket message or control frame, as the application sees it.
public enum WebSocketMessage: Sendable, Equatable {
    /// A whole text message, validated as UTF-8.
    case text(String)
    /// A whole binary message.
    case binary([UInt8])
    /// A ping; answer with a pong carrying the same payload.
    case ping([UInt8])
    /// A pong (solicited or not).
    case pong([UInt8])
    /// A close frame: `.noStatusReceived` (1005) when it carried no code.
    case close(code: WebSocketCloseCode, reason: String)
}

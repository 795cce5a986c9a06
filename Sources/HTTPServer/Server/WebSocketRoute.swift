/// A path that accepts WebSocket upgrades, and what to do with each new session.
struct WebSocketRoute: Sendable {
    let path: String
    let handshake: WebSocketHandshake
    let onSession: @Sendable (WebSocketSession) -> Void
}

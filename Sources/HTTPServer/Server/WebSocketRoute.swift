/// A path that accepts WebSocket upgrades, and what to do with each new session.
struct WebSocketRoute: Sendable {
    let path: String
    let handshake: WebSocketHandshake
    let admit: (@Sendable (HTTPRequest) -> UpgradeDecision)?
    let onSession: @Sendable (WebSocketSession) -> Void
}

/// The application's answer to a valid WebSocket upgrade request, before the server accepts it.
public enum UpgradeDecision: Sendable {
    /// Upgrade; `onClose` runs once when the session's connection closes, however it closes.
    case accept(onClose: (@Sendable () -> Void)?)
    /// Answer this response instead (e.g. 403 for a foreign origin, 429 for too many sessions).
    case refuse(HTTPResponse)
}

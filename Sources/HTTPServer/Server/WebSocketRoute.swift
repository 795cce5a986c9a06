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
    /// Decide once `decide` returns (a count kept elsewhere, e.g. in Redis): the connection
    /// reads nothing more until then; if it closes meanwhile, an accepting decision's `onClose`
    /// still runs.
    case pending(@Sendable () async -> UpgradeDecision)
}

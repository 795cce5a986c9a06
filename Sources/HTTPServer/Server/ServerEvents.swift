import Metrics

/// The server's metrics, through swift-metrics (the application picks the backend).
struct ServerEvents: Sendable {
    let connections = Meter(label: "http_connections_open")
    let connectionsAccepted = Counter(label: "http_connections_total")
    let webSocketSessions = Meter(label: "websocket_sessions_open")
    let messagesIn = Counter(label: "websocket_messages_total", dimensions: [("direction", "in")])
    let messagesOut = Counter(label: "websocket_messages_total", dimensions: [("direction", "out")])
}

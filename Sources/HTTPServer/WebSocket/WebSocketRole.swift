/// Which end of a WebSocket connection this is. The protocol is the same for both; the role
/// decides who masks (clients mask every frame, servers never do, RFC 6455 §5.1), which
/// permessage-deflate window and context parameters apply to which direction (RFC 7692 §7.1),
/// and who closes the TCP connection after the closing handshake (the server, §7.1.1).
public enum WebSocketRole: Sendable, Equatable {
    /// The end that accepted the connection.
    case server
    /// The end that opened it.
    case client
}

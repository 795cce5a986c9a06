/// Why a `WebSocketClient` connection failed: before it opened (the URL, the TCP connect, the
/// server's answer to the opening handshake) or after (a protocol violation by the server, a
/// connection lost without a closing handshake).
public enum WebSocketClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is not a `ws://host[:port]/path` URL (`wss` is not supported: no TLS here).
    case invalidURL(String)
    /// The host name did not resolve.
    case unresolvableHost(String)
    /// The TCP connection could not be made.
    case connectFailed(SocketError)
    /// Neither the TCP connection nor the server's 101 came within the configured time.
    case timedOut
    /// The server answered the upgrade with another status than 101 (a 403 for a refused
    /// origin, a 429 for too many sessions, a 404…).
    case rejected(status: Int, headers: HTTPHeaders, body: String)
    /// The 101 response broke RFC 6455 §4.1 or RFC 7692 (missing `Upgrade`, a wrong
    /// `Sec-WebSocket-Accept`, an extension or parameter we did not offer…).
    case invalidHandshake(String)
    /// The response head was longer than `maxResponseHeadBytes`.
    case responseHeadTooLarge(limit: Int)
    /// The server broke the WebSocket protocol (or a limit, such as `maxMessageBytes`); the
    /// client failed the connection with the error's close code.
    case protocolViolation(WebSocketError)
    /// The TCP connection ended without a closing handshake.
    case connectionLost

    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid WebSocket URL \(url)"
        case .unresolvableHost(let host): "cannot resolve \(host)"
        case .connectFailed(let error): "connect failed: \(error)"
        case .timedOut: "timed out"
        case .rejected(let status, _, let body): "upgrade rejected with \(status): \(body.prefix(200))"
        case .invalidHandshake(let reason): "invalid handshake response: \(reason)"
        case .responseHeadTooLarge(let limit): "response head over \(limit) bytes"
        case .protocolViolation(let error): "protocol violation: \(error.reason)"
        case .connectionLost: "connection lost"
        }
    }
}

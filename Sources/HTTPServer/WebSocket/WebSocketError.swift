/// A violation by the peer that ends the WebSocket connection; the case says which close
/// code to fail the connection with (RFC 6455 section 7.1.7).
public enum WebSocketError: Error, Equatable, Sendable {
    /// The peer broke the framing or messaging rules: close with 1002.
    case protocolError(String)
    /// Text or close reason that is not UTF-8, or undecompressable data: close with 1007.
    case invalidPayload(String)
    /// A frame or message over the configured limit: close with 1009.
    case messageTooBig(String)
    /// The peer breaks a server policy (e.g. never reads what it is sent): close with 1008.
    case policyViolation(String)

    /// The close code to send when failing the connection.
    public var closeCode: WebSocketCloseCode {
        switch self {
        case .protocolError: return .protocolError
        case .invalidPayload: return .invalidPayload
        case .messageTooBig: return .messageTooBig
        case .policyViolation: return .policyViolation
        }
    }

    /// A short human-readable reason, suitable for the close frame.
    public var reason: String {
        switch self {
        case .protocolError(let reason), .invalidPayload(let reason), .messageTooBig(let reason),
             .policyViolation(let reason):
            return reason
        }
    }
}

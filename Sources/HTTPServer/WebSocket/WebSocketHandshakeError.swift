/// Why an upgrade request was refused, and the HTTP answer to give.
public enum WebSocketHandshakeError: Error, Equatable, Sendable {
    /// A malformed upgrade request: 400 with the reason as body.
    case badRequest(String)
    /// Not a WebSocket upgrade, or an unsupported `Sec-WebSocket-Version`: 426 with
    /// `Sec-WebSocket-Version: 13` (and `Upgrade: websocket`).
    case upgradeRequired(String)
    /// The origin check refused the request: 403.
    case forbidden(String)

    /// The status to answer with.
    public var status: HTTPStatus {
        switch self {
        case .badRequest: return .badRequest
        case .upgradeRequired: return .upgradeRequired
        case .forbidden: return .forbidden
        }
    }

    /// A human-readable reason.
    public var reason: String {
        switch self {
        case .badRequest(let reason), .upgradeRequired(let reason), .forbidden(let reason): return reason
        }
    }

    /// The complete refusal response (plain-text body with the reason).
    public var response: HTTPResponse {
        var response = HTTPResponse(status: status, text: reason + "\n")
        if case .upgradeRequired = self {
            response.headers.add("Sec-WebSocket-Version", "13")
            response.headers.add("Upgrade", "websocket")
        }
        return response
    }
}

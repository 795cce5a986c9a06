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

    /// The header fields the refusal must carry whatever its body: `Sec-WebSocket-Version: 13`
    /// and `Upgrade: websocket` on a 426.
    public var headers: HTTPHeaders {
        guard case .upgradeRequired = self else { return [:] }
        return ["Sec-WebSocket-Version": "13", "Upgrade": "websocket"]
    }

    /// The complete refusal response (plain-text body with the reason).
    public var response: HTTPResponse {
        var response = HTTPResponse(status: status, text: reason + "\n")
        for (name, value) in headers { response.headers.add(name, value) }
        return response
    }
}

import Foundation

/// Server side of the opening handshake (RFC 6455 section 4.2): validates an upgrade request
/// and builds the 101 response, negotiating permessage-deflate and a subprotocol.
public struct WebSocketHandshake: Sendable {
    /// The GUID appended to the key before hashing (RFC 6455 section 1.3).
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Decides whether an `Origin` (nil when absent) may connect; refused → 403.
    public var originCheck: (@Sendable (String?) -> Bool)?
    /// The permessage-deflate policy; nil disables compression.
    public var deflate: PerMessageDeflateConfiguration?
    /// Subprotocols the server speaks, in order of preference.
    public var subprotocols: [String]

    public init(
        originCheck: (@Sendable (String?) -> Bool)? = nil,
        deflate: PerMessageDeflateConfiguration? = PerMessageDeflateConfiguration(),
        subprotocols: [String] = []
    ) {
        self.originCheck = originCheck
        self.deflate = deflate
        self.subprotocols = subprotocols
    }

    /// The outcome of an accepted handshake.
    public struct Accepted: Sendable {
        /// The 101 response to send.
        public var response: HTTPResponse
        /// The agreed permessage-deflate parameters, if compression is on.
        public var deflate: PerMessageDeflateParameters?
        /// The chosen subprotocol, if any.
        public var subprotocol: String?
    }

    /// Validates `request` and returns the 101 response, or throws the refusal to send.
    public func accept(_ request: HTTPRequest) throws(WebSocketHandshakeError) -> Accepted {
        let headers = request.headers
        guard request.method == .get else { throw .badRequest("WebSocket upgrade requires GET") }
        guard request.version.major == 1, request.version.minor >= 1 else {
            throw .badRequest("WebSocket upgrade requires HTTP/1.1")
        }
        guard headers["Upgrade"] != nil else { throw .upgradeRequired("this endpoint requires a WebSocket upgrade") }
        guard headers.contains("Upgrade", token: "websocket") else { throw .badRequest("Upgrade must be websocket") }
        guard headers.contains("Connection", token: "upgrade") else { throw .badRequest("Connection must include Upgrade") }
        let versions = headers.values(for: "Sec-WebSocket-Version")
        guard versions.count == 1, versions[0].trimmingCharacters(in: .whitespaces) == "13" else {
            throw .upgradeRequired("unsupported Sec-WebSocket-Version")
        }
        let keys = headers.values(for: "Sec-WebSocket-Key")
        guard keys.count == 1 else { throw .badRequest("exactly one Sec-WebSocket-Key is required") }
        let key = keys[0].trimmingCharacters(in: .whitespaces)
        guard let decoded = Data(base64Encoded: key), decoded.count == 16 else {
            throw .badRequest("Sec-WebSocket-Key must be 16 bytes in base64")
        }
        if let originCheck, !originCheck(headers["Origin"]) { throw .forbidden("origin not allowed") }

        var response = HTTPResponse(status: .switchingProtocols)
        response.headers.add("Upgrade", "websocket")
        response.headers.add("Connection", "Upgrade")
        response.headers.add("Sec-WebSocket-Accept", Self.acceptValue(forKey: key))
        var agreed: PerMessageDeflateParameters?
        if let deflate, let negotiated = PerMessageDeflateNegotiation.negotiate(
            offers: headers.values(for: "Sec-WebSocket-Extensions"), configuration: deflate)
        {
            agreed = negotiated.parameters
            response.headers.add("Sec-WebSocket-Extensions", negotiated.response)
        }
        let offered = headers.tokens(for: "Sec-WebSocket-Protocol")
        let subprotocol = subprotocols.first { offered.contains($0.lowercased()) }
        if let subprotocol { response.headers.add("Sec-WebSocket-Protocol", subprotocol) }
        return Accepted(response: response, deflate: agreed, subprotocol: subprotocol)
    }

    /// `Sec-WebSocket-Accept` for a key: base64(SHA-1(key + GUID)).
    public static func acceptValue(forKey key: String) -> String {
        Data(SHA1.hash(Array((key + guid).utf8))).base64EncodedString()
    }
}

import Foundation

/// The client side of the opening handshake (RFC 6455 §4.1): the upgrade request with a fresh
/// `Sec-WebSocket-Key` and our permessage-deflate offer, and the checks on the server's answer
/// (101, `Upgrade`, `Connection`, `Sec-WebSocket-Accept`, the agreed extension). Pure.
public struct WebSocketClientHandshake: Sendable {
    /// What the server agreed to.
    public struct Agreement: Sendable, Equatable {
        /// The 101 response.
        public var response: HTTPResponseHead
        /// The permessage-deflate parameters, nil when the server declined compression.
        public var deflate: PerMessageDeflateParameters?
    }

    /// The request target: path and query, percent-encoded (`/ws/pipelines?x=1`).
    public let target: String
    /// The `Host` field value.
    public let host: String
    /// The key sent, base64 of 16 random bytes.
    public let key: String
    public let configuration: WebSocketClientConfiguration

    /// A handshake with `key` (by default 16 bytes from the system's random source).
    public init(target: String, host: String, configuration: WebSocketClientConfiguration, key: String = Self.makeKey()) {
        self.target = target.isEmpty ? "/" : target
        self.host = host
        self.configuration = configuration
        self.key = key
    }

    /// A fresh `Sec-WebSocket-Key`.
    public static func makeKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0 ..< 16).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }).base64EncodedString()
    }

    /// The upgrade request's bytes.
    public var request: [UInt8] {
        var text = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        text += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if let deflate = configuration.deflate {
            text += "Sec-WebSocket-Extensions: \(PerMessageDeflateNegotiation.offer(deflate))\r\n"
        }
        if let origin = configuration.origin { text += "Origin: \(origin)\r\n" }
        for (name, value) in configuration.headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// Checks a 101 response; throws `.invalidHandshake` for anything RFC 6455 §4.1 tells a
    /// client to fail the connection for. (Other statuses are refusals, told apart before.)
    public func validate(_ response: HTTPResponseHead) throws(WebSocketClientError) -> Agreement {
        let headers = response.headers
        guard response.status == 101 else { throw .invalidHandshake("status \(response.status), not 101") }
        guard headers.contains("Upgrade", token: "websocket") else { throw .invalidHandshake("Upgrade is not websocket") }
        guard headers.contains("Connection", token: "upgrade") else { throw .invalidHandshake("Connection does not include Upgrade") }
        let accepts = headers.values(for: "Sec-WebSocket-Accept")
        let expected = WebSocketHandshake.acceptValue(forKey: key)
        guard accepts.count == 1, accepts[0] == expected else {
            throw .invalidHandshake("Sec-WebSocket-Accept \(accepts) does not answer the key (expected \(expected))")
        }
        guard headers["Sec-WebSocket-Protocol"] == nil else { throw .invalidHandshake("a subprotocol was chosen, none was offered") }
        let extensions = headers.values(for: "Sec-WebSocket-Extensions")
        let deflate: PerMessageDeflateParameters?
        if let offered = configuration.deflate {
            deflate = try PerMessageDeflateNegotiation.agreement(response: extensions, offered: offered)
        } else {
            guard extensions.isEmpty else { throw .invalidHandshake("an extension was agreed, none was offered") }
            deflate = nil
        }
        return Agreement(response: response, deflate: deflate)
    }
}

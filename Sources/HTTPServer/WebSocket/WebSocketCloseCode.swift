/// A WebSocket close status code (RFC 6455 section 7.4).
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection was fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (server shutdown, page navigation).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: protocol error.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a data type the endpoint cannot accept (e.g. binary where only text is understood).
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: no status code was present; never sent on the wire.
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: closed without a close frame; never sent on the wire.
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: message data inconsistent with its type (e.g. invalid UTF-8 text).
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a policy was violated.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message too big to process.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: the client expected an extension the server did not negotiate.
    public static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server hit an unexpected condition.
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// Whether a peer may send this code in a close frame: 1000-1003, 1007-1011 and the
    /// registered/private range 3000-4999 (the set the Autobahn TestSuite accepts).
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1011, 3000...4999: return true
        default: return false
        }
    }

    public var description: String { String(rawValue) }
}

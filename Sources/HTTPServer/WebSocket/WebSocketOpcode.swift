/// A WebSocket frame opcode (RFC 6455 section 5.2).
public struct WebSocketOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 4-bit opcode value (0...15).
    public let rawValue: UInt8

    /// Creates an opcode from its 4-bit value; higher bits are ignored.
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }

    public static let continuation = WebSocketOpcode(rawValue: 0x0)
    public static let text = WebSocketOpcode(rawValue: 0x1)
    public static let binary = WebSocketOpcode(rawValue: 0x2)
    public static let close = WebSocketOpcode(rawValue: 0x8)
    public static let ping = WebSocketOpcode(rawValue: 0x9)
    public static let pong = WebSocketOpcode(rawValue: 0xA)

    /// Whether this is a control opcode (close, ping, pong or a reserved 0xB-0xF).
    public var isControl: Bool { rawValue & 0x08 != 0 }

    /// Whether RFC 6455 defines this opcode (the others are reserved).
    public var isDefined: Bool {
        switch rawValue {
        case 0x0, 0x1, 0x2, 0x8, 0x9, 0xA: return true
        default: return false
        }
    }

    public var description: String {
        switch rawValue {
        case 0x0: return "continuation"
        case 0x1: return "text"
        case 0x2: return "binary"
        case 0x8: return "close"
        case 0x9: return "ping"
        case 0xA: return "pong"
        default: return "reserved(0x\(String(rawValue, radix: 16)))"
        }
    }
}

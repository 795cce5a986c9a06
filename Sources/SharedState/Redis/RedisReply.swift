/// A Redis reply, copied out of hiredis's reply object.
public enum RedisReply: Equatable, Sendable {
    case string([UInt8])
    case status(String)
    case integer(Int)
    case array([RedisReply])
    case null

    /// The reply as UTF-8 text, for strings and statuses.
    public var text: String? {
        switch self {
        case .string(let bytes): String(decoding: bytes, as: UTF8.self)
        case .status(let text): text
        case .integer, .array, .null: nil
        }
    }
}

/// Why a Redis command did not produce a reply. Callers act on these: a `connection` or
/// `timeout` failure means "carry on with local state", `server` is a bug in the command.
public enum RedisError: Error, Equatable, Sendable {
    /// No connection could be made or kept (refused, reset, closed); `reason` is hiredis's text.
    case connection(String)
    /// The server did not answer within the configured timeout.
    case timeout
    /// The server answered with an error reply (`ERR …`, `WRONGTYPE …`).
    case server(String)
}

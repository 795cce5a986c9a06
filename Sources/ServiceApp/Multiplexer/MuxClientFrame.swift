import Foundation
import StreamCore

/// What a client's text frame on `/ws/pipelines` means (a subscriber's calls on the wire), or
/// why it is refused.
enum MuxClientFrame: Equatable, Sendable {
    /// `{"type":"subscribe","id":…,"pipeline":…,"demand":…,"trace":…}`.
    case subscribe(id: String, pipeline: String, demand: Subscribers.Demand, trace: Bool)
    /// `{"type":"send","id":…,"message":…}`: `message` is the text of one frame of the
    /// pipeline's own endpoint (an object re-encoded, or a string as it came).
    case send(id: String, message: String)
    /// `{"type":"request","id":…,"n":…}`.
    case request(id: String, demand: Subscribers.Demand)
    /// `{"type":"cancel","id":…}`.
    case cancel(id: String)
    /// A frame that cannot be taken: answered with an `error` frame (`id` nil when the frame
    /// had no valid one).
    case refused(id: String?, code: MuxErrorCode, message: String)

    /// The longest id, in Unicode code points.
    static let maxIDLength = 64

    /// The deepest nesting of arrays and objects the JSON parser reads (Foundation's scanner
    /// limit, not a setting of ours); a deeper frame is refused with a message saying so.
    static let maxNestingDepth = 512

    /// Reads one text frame.
    init(text: String) {
        let data = Data(text.utf8)
        guard text.utf8.first == UInt8(ascii: "{"),
              let fields = try? JSONDecoder().decode([String: JSONValue].self, from: data) else {
            let message = JSONNesting.exceeds(Self.maxNestingDepth, in: text.utf8)
                ? "the frame is nested too deeply: more than \(Self.maxNestingDepth) levels of arrays and objects"
                : "a frame must be one JSON object"
            self = .refused(id: nil, code: .badMessage, message: message)
            return
        }
        guard case .string(let type)? = fields["type"] else {
            self = .refused(id: nil, code: .badMessage, message: "the frame has no string \"type\"")
            return
        }
        guard ["subscribe", "send", "request", "cancel"].contains(type) else {
            self = .refused(id: Self.id(fields), code: .badMessage,
                            message: "unknown frame type \"\(type.prefix(64))\"; expected subscribe, send, request or cancel")
            return
        }
        guard let id = Self.id(fields) else {
            self = .refused(
                id: nil, code: .badMessage,
                message: "\"id\" must be a string of 1 to \(Self.maxIDLength) Unicode code points")
            return
        }
        self = Self.read(type: type, id: id, fields, data: data)
    }

    private static func read(type: String, id: String, _ fields: [String: JSONValue], data: Data) -> MuxClientFrame {
        switch type {
        case "subscribe":
            guard case .string(let pipeline)? = fields["pipeline"] else {
                return .refused(id: id, code: .badMessage, message: "subscribe needs a string \"pipeline\"")
            }
            let trace: Bool
            switch fields["trace"] {
            case nil, .null?: trace = false
            case .bool(let value)?: trace = value
            default: return .refused(id: id, code: .badMessage, message: "\"trace\" must be true or false")
            }
            guard let demand = demand(fields["demand"], field: .demand, minimum: 0, in: data) else {
                return .refused(
                    id: id, code: .badDemand, message: "\"demand\" must be an integer from 0 to 2^63 − 1, or \"unlimited\"")
            }
            return .subscribe(id: id, pipeline: pipeline, demand: demand, trace: trace)
        case "send":
            switch fields["message"] {
            case .string(let text)?: return .send(id: id, message: text)
            case let message? where message.isObject:
                guard let data = try? JSONEncoder().encode(message) else {
                    return .refused(id: id, code: .badMessage, message: "\"message\" cannot be re-encoded")
                }
                return .send(id: id, message: String(decoding: data, as: UTF8.self))
            default:
                return .refused(id: id, code: .badMessage, message: "send needs a \"message\": a JSON object (or a text frame as a string)")
            }
        case "request":
            guard fields["n"] != nil, let demand = demand(fields["n"], field: .n, minimum: 1, in: data) else {
                return .refused(
                    id: id, code: .badDemand, message: "\"n\" must be an integer from 1 to 2^63 − 1, or \"unlimited\"")
            }
            return .request(id: id, demand: demand)
        default:
            return .cancel(id: id)
        }
    }

    /// The frame's `id` when it is a string of 1…64 characters (Unicode code points, as JSON
    /// Schema's `maxLength` counts them).
    private static func id(_ fields: [String: JSONValue]) -> String? {
        // prefix: counts at most 65, however long the string.
        guard case .string(let id)? = fields["id"], !id.isEmpty, id.unicodeScalars.prefix(maxIDLength + 1).count <= maxIDLength else {
            return nil
        }
        return id
    }

    /// A demand: absent is unlimited (subscribe's default), `"unlimited"`, or an integer from
    /// `minimum` to `Int.max` (2^63 − 1).
    ///
    /// `JSONValue` holds numbers as `Double`s, which cannot tell 2^63 − 1 from 2^63; near that
    /// bound the field is decoded again from `data` as an `Int`, which is exact.
    private static func demand(
        _ value: JSONValue?, field: DemandField.Key, minimum: Int, in data: Data
    ) -> Subscribers.Demand? {
        switch value {
        case nil: return .unlimited
        case .string("unlimited")?: return .unlimited
        case .number(let number)?:
            guard number.rounded() == number, number >= Double(minimum), number <= 0x1p63 else { return nil }
            if number < 0x1p62 { return .max(Int(number)) }
            let decoder = JSONDecoder()
            decoder.userInfo[DemandField.key] = field
            guard let exact = try? decoder.decode(DemandField.self, from: data).value else { return nil }
            return .max(exact)
        default: return nil
        }
    }
}

/// One demand field of a frame, decoded as an exact `Int` (see `MuxClientFrame.demand`).
private struct DemandField: Decodable {
    enum Key: String, CodingKey { case demand, n }

    static let key = CodingUserInfoKey(rawValue: "MuxClientFrame.demandField")!

    let value: Int

    init(from decoder: any Decoder) throws {
        let field = decoder.userInfo[Self.key] as? Key ?? .demand
        value = try decoder.container(keyedBy: Key.self).decode(Int.self, forKey: field)
    }
}

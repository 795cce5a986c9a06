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

    /// Reads one text frame.
    init(text: String) {
        guard text.utf8.first == UInt8(ascii: "{"),
              let fields = try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8)) else {
            self = .refused(id: nil, code: .badMessage, message: "a frame must be one JSON object")
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
            self = .refused(id: nil, code: .badMessage, message: "\"id\" must be a string of 1 to \(Self.maxIDLength) characters")
            return
        }
        self = Self.read(type: type, id: id, fields)
    }

    private static func read(type: String, id: String, _ fields: [String: JSONValue]) -> MuxClientFrame {
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
            guard let demand = demand(fields["demand"], minimum: 0) else {
                return .refused(id: id, code: .badDemand, message: "\"demand\" must be an integer ≥ 0 or \"unlimited\"")
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
            guard fields["n"] != nil, let demand = demand(fields["n"], minimum: 1) else {
                return .refused(id: id, code: .badDemand, message: "\"n\" must be an integer ≥ 1 or \"unlimited\"")
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
    /// `minimum` to `Int.max`.
    private static func demand(_ value: JSONValue?, minimum: Int) -> Subscribers.Demand? {
        switch value {
        case nil: return .unlimited
        case .string("unlimited")?: return .unlimited
        case .number(let number)?:
            guard number.rounded() == number, number >= Double(minimum), number < 9.2e18 else { return nil }
            return .max(Int(number))
        default: return nil
        }
    }
}

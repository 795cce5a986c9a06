/// A server → client frame of `/ws/pipelines`: one JSON object, one line, one text frame.
enum MuxServerFrame: Equatable, Sendable {
    /// The subscription exists (sent outside demand, before its first event).
    case subscribed(id: String, pipeline: String)
    /// One event of the instance, `event` being its JSON text exactly as its endpoint sends it.
    case event(id: String, event: String)
    /// One trace event of the instance (`"trace":true`), `trace` being the tracer's JSON object.
    case trace(id: String, trace: String)
    /// The subscription ended by itself with a failure (so far only `overflow`).
    case failure(id: String, code: String, message: String)
    /// A client frame was refused; `id` is nil when the frame had no valid one.
    case error(id: String?, code: MuxErrorCode, message: String)

    /// The failure of a subscription that let more than `mux.maxPendingEvents` wait.
    static func overflow(id: String, limit: Int) -> MuxServerFrame {
        .failure(id: id, code: "overflow", message: "more than \(limit) events waited for demand")
    }

    /// The frame as the single-line JSON text the contract defines; `event` and `trace` are
    /// embedded as they came, without being parsed again.
    var json: String {
        switch self {
        case .subscribed(let id, let pipeline):
            #"{"id":\#(Self.quoted(id)),"pipeline":\#(Self.quoted(pipeline)),"type":"subscribed"}"#
        case .event(let id, let event):
            #"{"event":\#(event),"id":\#(Self.quoted(id)),"type":"event"}"#
        case .trace(let id, let trace):
            Self.inserting(id: id, into: trace)
        case .failure(let id, let code, let message):
            #"{"failure":{"code":\#(Self.quoted(code)),"message":\#(Self.quoted(message))},"id":\#(Self.quoted(id)),"type":"completion"}"#
        case .error(let id, let code, let message):
            #"{"code":"\#(code.rawValue)","id":\#(id.map(Self.quoted) ?? "null"),"message":\#(Self.quoted(message)),"type":"error"}"#
        }
    }

    /// The tracer's object (keys sorted: `event`, `failure`, `stage`, `t`, `type`, `value`) with
    /// `"id"` in its sorted place, before `"stage"`, which every trace has:
    /// `{"event":…,"id":…,"stage":…,"t":…,"type":"trace"}`. The first `,"stage":` is the
    /// top-level key: inside a string every quote is escaped, and only `value`, which sorts
    /// after `stage`, can hold objects.
    static func inserting(id: String, into trace: String) -> String {
        guard let stage = trace.range(of: #","stage":"#) else {
            return #"{"id":\#(quoted(id)),"# + String(trace.dropFirst())
        }
        return trace[..<stage.lowerBound] + #","id":"# + quoted(id) + trace[stage.lowerBound...]
    }

    /// `text` as a JSON string literal (quotes, backslashes and control characters escaped).
    static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

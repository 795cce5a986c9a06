/// A server → client frame of `/ws/pipelines`: one JSON object, keys sorted, one line, one text
/// frame. The one definition of these frames, written by the multiplexer and read by
/// `RemotePipeline`.
public enum MuxServerFrame: Equatable, Hashable, Sendable {
    /// The subscription exists (sent outside demand, before its first event).
    case subscribed(id: String, pipeline: String)
    /// One event of the instance, `event` being its JSON object exactly as its endpoint sends it.
    case event(id: String, event: String)
    /// One trace event of the instance, `trace` being the tracer's JSON object (keys sorted,
    /// without `id`: the frame puts the id among them).
    case trace(id: String, trace: String)
    /// The subscription ended by itself: `failure` nil when it finished (`"finished":true`).
    case completion(id: String, failure: MuxFailure?)
    /// A client frame was refused; `id` is nil when the frame had no valid one. `stage` is for
    /// `bad_pipeline` only (written as a number or `null`; left out for other codes): the index
    /// of the first offending stage, nil when the definition as a whole is wrong.
    case error(id: String?, code: MuxErrorCode, message: String, stage: Int? = nil)

    /// The `type` of each frame, in the contract's order.
    public static let types = ["subscribed", "event", "trace", "completion", "error"]

    /// The fields each frame may have besides `type` (a trace's others are the tracer's).
    public static let fields: [String: [String]] = [
        "subscribed": ["id", "pipeline"],
        "event": ["id", "event"],
        "trace": ["id"],
        "completion": ["id", "finished", "failure"],
        "error": ["id", "code", "message", "stage"],
    ]

    /// The failure of a subscription that let more than `limit` events wait for demand.
    public static func overflow(id: String, limit: Int) -> MuxServerFrame {
        .completion(id: id, failure: .overflow(limit: limit))
    }

    /// The subscription the frame is about (nil for an error about a frame without a valid id).
    public var id: String? {
        switch self {
        case .subscribed(let id, _), .event(let id, _), .trace(let id, _), .completion(let id, _): id
        case .error(let id, _, _, _): id
        }
    }

    // MARK: Writing

    /// The frame as the single-line JSON text the contract defines, keys sorted; `event` and
    /// `trace` are embedded as they came, without being parsed again.
    public var json: String {
        if case .trace(let id, let trace) = self { return Self.inserting(id: id, into: trace) }
        // Room for the embedded event and the frame around it, so that the text grows only once.
        let capacity = if case .event(_, let event) = self { event.utf8.count + 64 } else { 96 }
        var writer = JSONWriter(capacity: capacity)
        writer.beginObject()
        switch self {
        case .subscribed(let id, let pipeline):
            writer.member("id", string: id)
            writer.member("pipeline", string: pipeline)
            writer.member("type", string: "subscribed")
        case .event(let id, let event):
            writer.member("event", json: event)
            writer.member("id", string: id)
            writer.member("type", string: "event")
        case .completion(let id, let failure):
            if let failure {
                writer.beginObject("failure")
                writer.member("code", string: failure.code.rawValue)
                writer.member("message", string: failure.message)
                writer.endObject()
            } else {
                writer.member("finished", bool: true)
            }
            writer.member("id", string: id)
            writer.member("type", string: "completion")
        case .error(let id, let code, let message, let stage):
            writer.member("code", string: code.rawValue)
            writer.member("id", stringOrNull: id)
            writer.member("message", string: message)
            if code == .badPipeline { writer.member("stage", json: stage.map(String.init) ?? "null") }
            writer.member("type", string: "error")
        case .trace:
            break
        }
        writer.endObject()
        return writer.text
    }

    /// The tracer's object (keys sorted: `event`, `failure`, `stage`, `t`, `type`, `value`) with
    /// `"id"` in its sorted place among the top-level keys (found by scanning the object, so a
    /// `"stage"` inside a string or a value is never taken for one):
    /// `{"event":…,"id":…,"stage":…,"t":…,"type":"trace"}`. Text that is not an object gets the
    /// id first.
    static func inserting(id: String, into trace: String) -> String {
        let member = #""id":"# + JSONWriter.quoted(id)
        var copy = trace
        // Where the member goes (a byte offset), with its comma before or after it.
        let place: (offset: Int, text: String)? = copy.withUTF8 { bytes in
            guard let members = try? JSONScanner.members(of: bytes), let open = bytes.firstIndex(of: UInt8(ascii: "{")) else {
                return nil
            }
            if let next = members.first(where: { !$0.key.utf8.lexicographicallyPrecedes("id".utf8) }) {
                return (next.range.lowerBound, member + ",")
            }
            guard let last = members.last else { return (open + 1, member) }
            return (last.range.upperBound, "," + member)
        }
        guard let place else { return "{" + member + "," + String(trace.dropFirst()) }
        let index = trace.utf8.index(trace.utf8.startIndex, offsetBy: place.offset)
        return String(trace[..<index]) + place.text + String(trace[index...])
    }

    // MARK: Reading

    /// Reads one text frame (as a client does); throws, with a `bad_message` error saying why,
    /// for anything the contract does not define.
    public init(decoding text: String) throws(MuxFrameError) {
        var copy = text
        let frame: Result<MuxServerFrame, MuxFrameError> = copy.withUTF8 { bytes in
            func invalid(_ reason: String) -> Result<MuxServerFrame, MuxFrameError> {
                .failure(MuxFrameError(id: nil, code: .badMessage, message: "\(reason): \(text.prefix(200))"))
            }
            guard let members = try? JSONScanner.members(of: bytes) else { return invalid("not a JSON object with a type") }
            let fields = MuxFrameFields(members, in: bytes)
            guard case .string(let type)? = fields["type"] else { return invalid("not a JSON object with a type") }
            let id: String?
            switch fields["id"] {
            case .string(let value)?: id = value
            case nil, .null?: id = nil
            default: return invalid("an id that is not a string")
            }
            switch (type, id) {
            case ("subscribed", let id?):
                guard case .string(let pipeline)? = fields["pipeline"] else { return invalid("a subscribed frame without a pipeline") }
                return .success(.subscribed(id: id, pipeline: pipeline))
            case ("event", let id?):
                guard case .object(let range)? = fields["event"] else { return invalid("an event frame without an event object") }
                return .success(.event(id: id, event: fields.text(range)))
            case ("trace", let id?):
                return .success(.trace(id: id, trace: Self.removingID(fields)))
            case ("completion", let id?):
                switch fields["failure"] {
                case nil:
                    return .success(.completion(id: id, failure: nil))
                case .object(let range)?:
                    guard let failure = Self.failure(fields.bytes(range)) else { return invalid("a failure without a code and a message") }
                    return .success(.completion(id: id, failure: failure))
                default:
                    return invalid("a failure that is not an object")
                }
            case ("error", _):
                guard case .string(let code)? = fields["code"], case .string(let message)? = fields["message"] else {
                    return invalid("an error frame without a code and a message")
                }
                let stage: Int?
                switch fields["stage"] {
                case nil, .null?: stage = nil
                case .number(let range)?:
                    guard let index = MuxFrameFields.integer(fields.bytes(range)), index >= 0 else { return invalid("a stage that is not an index") }
                    stage = index
                default: return invalid("a stage that is not an index")
                }
                let errorCode = MuxErrorCode(rawValue: code)
                return .success(.error(id: id, code: errorCode, message: message, stage: errorCode == .badPipeline ? stage : nil))
            default:
                return invalid("unknown frame")
            }
        }
        self = try frame.get()
    }

    /// A trace frame's object without its `id`: the other members as they came.
    private static func removingID(_ fields: MuxFrameFields) -> String {
        "{" + fields.all.filter { $0.key != "id" }.map { fields.text($0.range) }.joined(separator: ",") + "}"
    }

    private static func failure(_ bytes: UnsafeBufferPointer<UInt8>) -> MuxFailure? {
        guard let members = try? JSONScanner.members(of: bytes) else { return nil }
        let fields = MuxFrameFields(members, in: bytes)
        guard case .string(let code)? = fields["code"], case .string(let message)? = fields["message"] else { return nil }
        return MuxFailure(code: MuxFailure.Code(rawValue: code), message: message)
    }
}

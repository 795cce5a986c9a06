/// A client → server frame of `/ws/pipelines`: a subscriber's calls on the wire. The one
/// definition of these frames, read by the multiplexer and written by `RemotePipeline`.
public enum MuxClientFrame: Equatable, Hashable, Sendable {
    /// `{"type":"subscribe","id":…,"pipeline":…,"demand":…,"trace":…}`: `pipeline` a catalog
    /// name (a string) or a definition object, `demand` the first request (absent: unlimited),
    /// `trace` whether to send the instance's traces.
    case subscribe(id: String, pipeline: MuxPipelineName, demand: MuxDemand, trace: Bool)
    /// `{"type":"send","id":…,"message":…}`: one frame of the pipeline's own endpoint.
    case send(id: String, message: MuxSendMessage)
    /// `{"type":"request","id":…,"n":…}`: more demand (at least 1).
    case request(id: String, demand: MuxDemand)
    /// `{"type":"cancel","id":…}`.
    case cancel(id: String)

    /// The longest id, in Unicode code points (as JSON Schema's `maxLength` counts them).
    public static let maxIDLength = 64

    /// The deepest nesting of arrays and objects a frame may have, the frame itself counting as
    /// the first level; a deeper frame is refused with a message saying so.
    public static let maxNestingDepth = 512

    /// The `type` of each frame, in the contract's order.
    public static let types = ["subscribe", "send", "request", "cancel"]

    /// The fields each frame may have besides `type`, and which of them it must have.
    public static let fields: [String: (all: [String], required: [String])] = [
        "subscribe": (["id", "pipeline", "demand", "trace"], ["id", "pipeline"]),
        "send": (["id", "message"], ["id", "message"]),
        "request": (["id", "n"], ["id", "n"]),
        "cancel": (["id"], ["id"]),
    ]

    /// The subscription the frame is about.
    public var id: String {
        switch self {
        case .subscribe(let id, _, _, _), .send(let id, _), .request(let id, _), .cancel(let id): id
        }
    }

    // MARK: Writing

    /// The frame as one line of JSON, keys sorted (`trace` only when true).
    public var json: String {
        var writer = JSONWriter()
        writer.beginObject()
        switch self {
        case .subscribe(let id, let pipeline, let demand, let trace):
            writer.member("demand", json: demand.json)
            writer.member("id", string: id)
            writer.member("pipeline", json: pipeline.json)
            if trace { writer.member("trace", bool: true) }
            writer.member("type", string: "subscribe")
        case .send(let id, let message):
            writer.member("id", string: id)
            writer.member("message", json: message.json)
            writer.member("type", string: "send")
        case .request(let id, let demand):
            writer.member("id", string: id)
            writer.member("n", json: demand.json)
            writer.member("type", string: "request")
        case .cancel(let id):
            writer.member("id", string: id)
            writer.member("type", string: "cancel")
        }
        writer.endObject()
        return writer.text
    }

    // MARK: Reading

    /// Reads one text frame in a single pass; a `send`'s object `message` and a `subscribe`'s
    /// object `pipeline` are handed on as their exact text. Throws what the server answers in an `error` frame: the code, the message,
    /// and the frame's id when it had a valid one.
    public init(decoding text: String) throws(MuxFrameError) {
        var text = text
        let frame: Result<MuxClientFrame, MuxFrameError> = text.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "{"),
                  let members = try? JSONScanner.members(of: bytes, maxDepth: Self.maxNestingDepth) else {
                let message = JSONNesting.exceeds(Self.maxNestingDepth, in: bytes)
                    ? "the frame is nested too deeply: more than \(Self.maxNestingDepth) levels of arrays and objects"
                    : "a frame must be one JSON object"
                return .failure(MuxFrameError(id: nil, code: .badMessage, message: message))
            }
            return Self.read(MuxFrameFields(members, in: bytes))
        }
        self = try frame.get()
    }

    private static func read(_ fields: MuxFrameFields) -> Result<MuxClientFrame, MuxFrameError> {
        guard case .string(let type)? = fields["type"] else {
            return .failure(MuxFrameError(id: nil, code: .badMessage, message: "the frame has no string \"type\""))
        }
        guard types.contains(type) else {
            return .failure(MuxFrameError(
                id: id(fields), code: .badMessage,
                message: "unknown frame type \"\(type.prefix(64))\"; expected subscribe, send, request or cancel"))
        }
        guard let id = id(fields) else {
            return .failure(MuxFrameError(
                id: nil, code: .badMessage, message: "\"id\" must be a string of 1 to \(maxIDLength) Unicode code points"))
        }
        func refuse(_ code: MuxErrorCode, _ message: String) -> Result<MuxClientFrame, MuxFrameError> {
            .failure(MuxFrameError(id: id, code: code, message: message))
        }
        switch type {
        case "subscribe":
            let pipeline: MuxPipelineName
            switch fields["pipeline"] {
            case .string(let name)?: pipeline = .catalog(name)
            case .object(let range)?: pipeline = .composed(fields.text(range))
            default: return refuse(.badMessage, "subscribe needs a \"pipeline\": a catalog name (a string) or a definition object")
            }
            let trace: Bool
            switch fields["trace"] {
            case nil, .null?: trace = false
            case .bool(let value)?: trace = value
            default: return refuse(.badMessage, "\"trace\" must be true or false")
            }
            guard let demand = fields.demand("demand", minimum: 0, absent: .unlimited) else {
                return refuse(.badDemand, "\"demand\" must be an integer from 0 to 2^63 − 1, or \"unlimited\"")
            }
            return .success(.subscribe(id: id, pipeline: pipeline, demand: demand, trace: trace))
        case "send":
            switch fields["message"] {
            case .string(let text)?: return .success(.send(id: id, message: .text(text)))
            case .object(let range)?: return .success(.send(id: id, message: .object(json: fields.text(range))))
            default: return refuse(.badMessage, "send needs a \"message\": a JSON object (or a text frame as a string)")
            }
        case "request":
            guard let demand = fields.demand("n", minimum: 1, absent: nil) else {
                return refuse(.badDemand, "\"n\" must be an integer from 1 to 2^63 − 1, or \"unlimited\"")
            }
            return .success(.request(id: id, demand: demand))
        default:
            return .success(.cancel(id: id))
        }
    }

    /// The frame's `id` when it is a string of 1…64 Unicode code points.
    private static func id(_ fields: MuxFrameFields) -> String? {
        // prefix: counts at most 65, however long the string.
        guard case .string(let id)? = fields["id"], !id.isEmpty, id.unicodeScalars.prefix(maxIDLength + 1).count <= maxIDLength else {
            return nil
        }
        return id
    }
}

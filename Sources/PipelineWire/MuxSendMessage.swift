/// The `message` of a `send` frame: one client frame of the pipeline's own endpoint.
public enum MuxSendMessage: Equatable, Hashable, Sendable {
    /// A JSON object, as its exact text on the wire (never decoded and encoded again).
    case object(json: String)
    /// A JSON string: the text of a frame as it would come on the endpoint (`"heckj"`).
    case text(String)

    /// The text frame the pipeline's endpoint is handed: the object's JSON, or the string.
    public var frameText: String {
        switch self {
        case .object(let json): json
        case .text(let text): text
        }
    }

    /// The message as a JSON value on the wire.
    var json: String {
        switch self {
        case .object(let json): json
        case .text(let text): JSONWriter.quoted(text)
        }
    }
}

extension MuxSendMessage {
    /// `json` as an object message, when it is one JSON object (whitespace around it allowed)
    /// that a frame could carry: nil otherwise.
    public init?(objectJSON json: String) {
        var copy = json
        let valid = copy.withUTF8 { bytes in
            (try? JSONScanner.members(of: bytes, maxDepth: MuxClientFrame.maxNestingDepth - 1)) != nil
        }
        guard valid else { return nil }
        self = .object(json: json)
    }
}

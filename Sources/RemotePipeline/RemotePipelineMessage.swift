import PipelineWire

/// One client frame of a pipeline's own endpoint (`{"type":"input","value":"hec"}`,
/// `{"type":"refresh"}`, …), carried in a `send` frame.
public struct RemotePipelineMessage: Sendable, Equatable, CustomStringConvertible {
    /// The frame: one JSON object.
    public let json: String

    /// A message from JSON text; nil unless it is one JSON object.
    public init?(json: String) {
        guard json.utf8.first == UInt8(ascii: "{"), MuxSendMessage(objectJSON: json) != nil else { return nil }
        self.json = json
    }

    private init(trusted json: String) { self.json = json }

    /// The current value of a text field: `{"type":"input","value":…}`.
    public static func input(_ value: String) -> RemotePipelineMessage {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("type", string: "input")
        writer.member("value", string: value)
        writer.endObject()
        return RemotePipelineMessage(trusted: writer.text)
    }

    /// The pull-to-refresh gesture of `github-search`: `{"type":"refresh"}`.
    public static let refresh = RemotePipelineMessage(trusted: #"{"type":"refresh"}"#)

    public var description: String { json }
}

/// What `RemotePipeline.events(for:)` takes as input: each value becomes one message.
public protocol RemotePipelineMessageConvertible {
    var remotePipelineMessage: RemotePipelineMessage { get }
}

extension RemotePipelineMessage: RemotePipelineMessageConvertible {
    public var remotePipelineMessage: RemotePipelineMessage { self }
}

/// A string is the current value of the pipeline's text field (`.input(value)`).
extension String: RemotePipelineMessageConvertible {
    public var remotePipelineMessage: RemotePipelineMessage { .input(self) }
}

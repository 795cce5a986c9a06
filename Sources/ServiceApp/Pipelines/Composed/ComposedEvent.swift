import GithubProxy
import PipelineWire

/// A server → client event of a composed subscription: one JSON object per event.
enum ComposedEvent: Equatable {
    /// First: the definition as it runs (normalised: every parameter present).
    case hello(PipelineDefinition)
    /// A lookup began (`true`) or ended (`false`), as `/ws` and `/ws/search` report it.
    case activity(active: Bool)
    /// An output value that is not a lookup result.
    case value(FlowValue)
    /// An output `github-user` result: `/ws`'s `result` event.
    case result(LookupResult)
    /// An output `github-search` result: `/ws/search`'s `search` event.
    case search(SearchResult)
    case error(code: String, message: String)

    /// The `pipeline` of the `hello`.
    static let pipelineName = "composed"

    /// The event as one line of JSON, keys sorted.
    var json: String {
        switch self {
        case .hello(let definition):
            var writer = JSONWriter()
            writer.beginObject()
            writer.member("pipeline", string: Self.pipelineName)
            writer.member("stages", json: "[" + definition.stages.map(\.json).joined(separator: ",") + "]")
            writer.member("type", string: "hello")
            writer.endObject()
            return writer.text
        case .activity(let active): return GithubUserEvent.activity(active: active).json
        case .value(let value):
            var writer = JSONWriter()
            writer.beginObject()
            writer.member("type", string: "value")
            writer.member("value", json: value.json)
            writer.endObject()
            return writer.text
        case .result(let result): return GithubUserEvent.result(result).json
        case .search(let result): return SearchEvent.search(result).json
        case .error(let code, let message): return GithubUserEvent.error(code: code, message: message).json
        }
    }

    /// The event that carries `value` out of the pipeline.
    init(output value: FlowValue) {
        switch value {
        case .user(let result): self = .result(result)
        case .search(let result): self = .search(result)
        default: self = .value(value)
        }
    }
}

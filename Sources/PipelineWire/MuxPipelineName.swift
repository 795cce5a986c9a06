/// What a `subscribe` frame's `pipeline` names: a pipeline of the catalog, or a composed one.
/// A string literal is a catalog name.
public enum MuxPipelineName: Equatable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// A catalog pipeline's name (`"github-user"`, see `GET /api/pipelines`).
    case catalog(String)
    /// A definition object (`{"stages":[…]}`), its exact JSON text as the frame carried it; the
    /// server reads it with `PipelineDefinition(decoding:limits:)` and its configured limits.
    case composed(String)

    /// The catalog pipeline `value` (`"github-user"`).
    public init(stringLiteral value: String) {
        self = .catalog(value)
    }

    /// A composed pipeline's definition, normalised.
    public static func composed(_ definition: PipelineDefinition) -> MuxPipelineName {
        .composed(definition.json)
    }

    /// The member's value as JSON text: a string, or the definition object as it is.
    var json: String {
        switch self {
        case .catalog(let name): JSONWriter.quoted(name)
        case .composed(let object): object
        }
    }
}

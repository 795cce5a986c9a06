/// One operator of the composer's catalog: what `GET /api/operators` lists, what the AsyncAPI
/// and OpenAPI documents and the playground are built from. `all` is the one table: the
/// operators' names and parameters that reading (`StageReader`) accepts come from it; the
/// defaults, bounds and kinds it states are what reading and checking (`DefinitionChecker`) do,
/// which tests hold together.
public struct OperatorDescription: Equatable, Hashable, Sendable {
    /// The operator's name (`op`).
    public let op: String
    /// The StreamCore (Combine) operator it runs, e.g. `throttle(for:scheduler:latest:)`.
    public let combine: String
    /// What it does, in a sentence.
    public let summary: String
    /// Its parameters besides `op`, in the catalog's order.
    public let parameters: [Parameter]
    /// The value kinds it accepts (`ValueKind` raw values, or `any`).
    public let accepts: [String]
    /// What it produces: `same` (the kind it got), a kind, or which parameter decides.
    public let produces: String

    /// One parameter of an operator.
    public struct Parameter: Equatable, Hashable, Sendable {
        /// Its type on the wire.
        public enum Kind: String, Sendable {
            case integer, boolean, string
            /// A string that is one of `values`.
            case `enum`
            /// A string, number or boolean: a value of the kind flowing into the stage.
            case value
        }

        /// A bound that the configuration sets, or a fixed one.
        public enum Bound: Equatable, Hashable, Sendable {
            case fixed(Int)
            case maxMs, maxCount, maxStringLength, maxPublishers

            /// The bound under `limits`.
            public func value(in limits: ComposerLimits) -> Int {
                switch self {
                case .fixed(let value): value
                case .maxMs: limits.maxMs
                case .maxCount: limits.maxCount
                case .maxStringLength: limits.maxStringLength
                case .maxPublishers: limits.maxPublishers
                }
            }
        }

        public let name: String
        public let type: Kind
        /// The smallest integer allowed.
        public let minimum: Int?
        /// The largest integer allowed.
        public let maximum: Bound?
        /// The value taken when it is left out (nil: none; see `required`).
        public let `default`: ComposedValue?
        /// An enum's values.
        public let values: [String]?
        /// Whether a stage must give it.
        public let required: Bool
        public let summary: String

        init(_ name: String, _ type: Kind, minimum: Int? = nil, maximum: Bound? = nil, default: ComposedValue? = nil,
             values: [String]? = nil, required: Bool = false, _ summary: String) {
            self.name = name
            self.type = type
            self.minimum = minimum
            self.maximum = maximum
            self.default = `default`
            self.values = values
            self.required = required
            self.summary = summary
        }

        /// The parameter as JSON, keys sorted, its bounds under `limits`.
        public func json(limits: ComposerLimits) -> String {
            var writer = JSONWriter()
            writer.beginObject()
            if let value = `default` { writer.member("default", json: value.json) }
            if let maximum { writer.member("maximum", integer: maximum.value(in: limits)) }
            if let minimum { writer.member("minimum", integer: minimum) }
            writer.member("name", string: name)
            writer.member("required", bool: required)
            writer.member("summary", string: summary)
            writer.member("type", string: type.rawValue)
            if let values { writer.member("values", json: OperatorDescription.array(values.map(JSONWriter.quoted))) }
            writer.endObject()
            return writer.text
        }
    }

    /// The operator as JSON, keys sorted, its parameters' bounds under `limits`.
    public func json(limits: ComposerLimits) -> String {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.member("accepts", json: Self.array(accepts.map(JSONWriter.quoted)))
        writer.member("combine", string: combine)
        writer.member("op", string: op)
        writer.member("parameters", json: Self.array(parameters.map { $0.json(limits: limits) }))
        writer.member("produces", string: produces)
        writer.member("summary", string: summary)
        writer.endObject()
        return writer.text
    }

    /// The document `GET /api/operators` answers: the limits, every operator, and the presets
    /// that fit the limits, keys sorted.
    public static func catalogJSON(limits: ComposerLimits) -> String {
        var writer = JSONWriter(capacity: 8192)
        writer.beginObject()
        writer.beginObject("limits")
        writer.member("maxCount", integer: limits.maxCount)
        writer.member("maxLookups", integer: limits.maxLookups)
        writer.member("maxMs", integer: limits.maxMs)
        writer.member("maxPublishers", integer: limits.maxPublishers)
        writer.member("maxStages", integer: limits.maxStages)
        writer.member("maxStringLength", integer: limits.maxStringLength)
        writer.endObject()
        writer.member("operators", json: array(all.map { $0.json(limits: limits) }))
        let presets = PipelineDefinition.presets.filter { (try? $0.definition.validate(limits: limits)) != nil }
        writer.member("presets", json: array(presets.map { preset in
            var entry = JSONWriter()
            entry.beginObject()
            entry.member("definition", json: preset.definition.json)
            entry.member("name", string: preset.name)
            entry.member("summary", string: preset.summary)
            entry.member("title", string: preset.title)
            entry.endObject()
            return entry.text
        }))
        writer.endObject()
        return writer.text
    }

    /// The operator called `op`.
    public static func named(_ op: String) -> OperatorDescription? {
        all.first { $0.op == op }
    }

    static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }
}

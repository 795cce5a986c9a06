/// One stage of a composed pipeline: a StreamCore operator with its parameters, as the JSON of
/// a definition names it (`{"op":"throttle","ms":500,"latest":true}`).
public enum ComposedStage: Equatable, Hashable, Sendable {
    /// `throttle(for:scheduler:latest:)`.
    case throttle(ms: Int, latest: Bool)
    /// `debounce(for:scheduler:)`.
    case debounce(ms: Int)
    /// `delay(for:scheduler:)`.
    case delay(ms: Int)
    /// `removeDuplicates()`.
    case removeDuplicates
    /// `filter(_:)` on the length (characters or elements) and the prefix; every condition given
    /// must hold (at least one is).
    case filter(minLength: Int?, maxLength: Int?, prefix: String?)
    /// `map(_:)`.
    case map(MapFunction)
    /// `scan(_:_:)`.
    case scan(ScanFunction)
    /// `collect(_:)` or `collect(_:options:)` (by time).
    case collect(CollectTrigger)
    /// `prepend(_:)`.
    case prepend(ComposedValue)
    /// A GitHub request per value, flattened.
    case lookup(LookupSource, flatten: Flatten)
    /// `retry(_:)` on the request of the lookup just before it.
    case retry(times: Int)

    /// Every operator's name, in the catalog's order (`OperatorDescription.all`).
    public static let ops = OperatorDescription.all.map(\.op)

    /// The operator's name (`op`).
    public var op: String {
        switch self {
        case .throttle: "throttle"
        case .debounce: "debounce"
        case .delay: "delay"
        case .removeDuplicates: "removeDuplicates"
        case .filter: "filter"
        case .map: "map"
        case .scan: "scan"
        case .collect: "collect"
        case .prepend: "prepend"
        case .lookup: "lookup"
        case .retry: "retry"
        }
    }

    /// The normalised object: every parameter present (defaults filled in; filter's absent
    /// conditions left out), keys sorted, one line.
    public var json: String {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.text
    }

    /// Writes the normalised object.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .throttle(let ms, let latest):
            writer.member("latest", bool: latest)
            writer.member("ms", integer: ms)
            writer.member("op", string: op)
        case .debounce(let ms), .delay(let ms):
            writer.member("ms", integer: ms)
            writer.member("op", string: op)
        case .removeDuplicates:
            writer.member("op", string: op)
        case .filter(let minLength, let maxLength, let prefix):
            if let maxLength { writer.member("maxLength", integer: maxLength) }
            if let minLength { writer.member("minLength", integer: minLength) }
            writer.member("op", string: op)
            if let prefix { writer.member("prefix", string: prefix) }
        case .map(let function):
            writer.member("fn", string: function.rawValue)
            writer.member("op", string: op)
        case .scan(let function):
            writer.member("fn", string: function.name)
            writer.member("op", string: op)
            if case .joined(let separator) = function { writer.member("separator", string: separator) }
        case .collect(.count(let count)):
            writer.member("count", integer: count)
            writer.member("op", string: op)
        case .collect(.ms(let ms)):
            writer.member("ms", integer: ms)
            writer.member("op", string: op)
        case .prepend(let value):
            writer.member("op", string: op)
            writer.member("value", json: value.json)
        case .lookup(let source, let flatten):
            writer.member("flatten", string: flatten.name)
            if case .flatMap(let maxPublishers) = flatten { writer.member("maxPublishers", integer: maxPublishers) }
            writer.member("op", string: op)
            writer.member("source", string: source.rawValue)
        case .retry(let times):
            writer.member("op", string: op)
            writer.member("times", integer: times)
        }
        writer.endObject()
    }
}

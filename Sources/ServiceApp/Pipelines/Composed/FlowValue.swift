import GithubProxy
import PipelineWire

/// A value between the stages of a composed pipeline: what the client typed (a string), what
/// the stages make of it (numbers, booleans, arrays), or a lookup's result.
enum FlowValue: Equatable, Sendable {
    case string(String)
    case number(Double)
    case boolean(Bool)
    case array([FlowValue])
    /// A `github-user` lookup's result (the `/ws` `result` event's content).
    case user(LookupResult)
    /// A `github-search` lookup's result (the `/ws/search` `search` event's content).
    case search(SearchResult)

    /// A definition's constant (a `prepend` value).
    init(_ value: ComposedValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number)
        case .boolean(let flag): self = .boolean(flag)
        }
    }

    /// How many elements an array has, or characters a string has (`filter`'s lengths, `map`'s
    /// `count`); nil for the other kinds, which those stages never receive (the definition's
    /// kinds are checked before it is built).
    var length: Int? {
        switch self {
        case .string(let text): text.count
        case .array(let elements): elements.count
        default: nil
        }
    }

    /// The value as JSON: strings, numbers and booleans as a definition's constants are written
    /// (`ComposedValue.json`: a whole number without a fraction); a lookup result as its
    /// endpoint's event object (`result` or `search`).
    var json: String {
        switch self {
        case .string(let text): ComposedValue.string(text).json
        case .number(let number): number.isFinite ? ComposedValue.number(number).json : "null"
        case .boolean(let flag): ComposedValue.boolean(flag).json
        case .array(let elements): "[" + elements.map(\.json).joined(separator: ",") + "]"
        case .user(let result): GithubUserEvent.result(result).json
        case .search(let result): SearchEvent.search(result).json
        }
    }
}

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

    /// The value as JSON: a lookup result is written as its endpoint's event object (`result`
    /// or `search`); an integral number without a fraction.
    var json: String {
        switch self {
        case .string(let text): return JSONWriter.quoted(text)
        case .number(let number):
            if number.rounded() == number, abs(number) < 9_007_199_254_740_992 { return String(Int64(number)) }
            return number.isFinite ? "\(number)" : "null"
        case .boolean(let flag): return flag ? "true" : "false"
        case .array(let elements): return "[" + elements.map(\.json).joined(separator: ",") + "]"
        case .user(let result): return GithubUserEvent.result(result).json
        case .search(let result): return SearchEvent.search(result).json
        }
    }
}

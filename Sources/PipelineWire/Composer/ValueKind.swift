/// The kind of the values that flow between the stages of a composed pipeline. The input is a
/// string; each stage accepts some kinds and produces one.
public enum ValueKind: String, Sendable, CaseIterable {
    case string
    case number
    case boolean
    case array
    /// A lookup of `github-user`: the user, or that none has the login.
    case githubUser = "github-user result"
    /// A lookup of `github-search`: the matching users.
    case githubSearch = "github-search result"

    /// Whether it is a lookup's result.
    public var isLookupResult: Bool { self == .githubUser || self == .githubSearch }

    /// The kind with its article, for messages ("a string", "an array").
    var described: String {
        self == .array ? "an array" : "a \(rawValue)"
    }
}

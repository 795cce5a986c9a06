/// What a `lookup` stage asks GitHub for, through the same client as the catalog pipelines.
public enum LookupSource: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The user whose login is the value, as `/ws` looks it up.
    case githubUser = "github-user"
    /// The users matching the value, as `/ws/search` searches.
    case githubSearch = "github-search"

    /// The kind of value its lookup produces.
    public var resultKind: ValueKind {
        switch self {
        case .githubUser: .githubUser
        case .githubSearch: .githubSearch
        }
    }
}

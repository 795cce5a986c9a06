/// The function a `map` stage applies to each value.
public enum MapFunction: String, Equatable, Hashable, Sendable, CaseIterable {
    /// string → string.
    case lowercased
    /// string → string.
    case uppercased
    /// string → string, without leading and trailing whitespace.
    case trimmed
    /// string or array → number: its characters or elements.
    case count
    /// github-user result → its login (the query when no user has it); github-search result →
    /// the first user's login ("" when none matched).
    case login
}

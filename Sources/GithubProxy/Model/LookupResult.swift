/// The outcome of looking a username up: the seed's `[GithubAPIUser]` plus why it is empty.
public struct LookupResult: Equatable, Sendable {
    /// The status the WebSocket `result` event and the REST answer report.
    public enum Status: String, Codable, Sendable {
        case found
        case notFound = "not_found"
        case tooShort = "too_short"
        case invalid
        case rateLimited = "rate_limited"
        case unavailable
    }

    /// The username that was looked up, as typed.
    public var query: String
    public var status: Status
    /// The user when found, else empty (the seed's `catch { Just([]) }`).
    public var users: [GithubUser]
    /// The upstream failure behind `rateLimited` and `unavailable`.
    public var failure: GithubError?
    /// The user is a cached copy served because the upstream failed (stale-if-error).
    public var stale: Bool

    /// `rateLimited` by the caller's own allowance, not GitHub's (the `"scope":"client"` field).
    public var limitedByClient: Bool {
        if case .clientRateLimited = failure { true } else { false }
    }

    public init(query: String, status: Status, users: [GithubUser] = [], failure: GithubError? = nil, stale: Bool = false) {
        self.query = query
        self.status = status
        self.users = users
        self.failure = failure
        self.stale = stale
    }

    /// The result for a failed upstream lookup.
    public init(query: String, failure: GithubError) {
        let status: Status
        switch failure {
        case .notFound: status = .notFound
        case .rateLimited, .clientRateLimited: status = .rateLimited
        case .rejected: status = .invalid
        case .timeout, .unavailable, .invalidResponse: status = .unavailable
        }
        self.init(query: query, status: status, users: [], failure: failure)
    }
}

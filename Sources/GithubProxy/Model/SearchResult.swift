/// One user in GitHub's `/search/users` answer (the fields the service passes on).
public struct GithubSearchItem: Codable, Equatable, Sendable {
    public var login: String
    public var id: Int
    public var avatarURL: String?
    public var htmlURL: String?

    public init(login: String, id: Int, avatarURL: String?, htmlURL: String?) {
        self.login = login
        self.id = id
        self.avatarURL = avatarURL
        self.htmlURL = htmlURL
    }

    enum CodingKeys: String, CodingKey {
        case login, id
        case avatarURL = "avatar_url"
        case htmlURL = "html_url"
    }
}

/// One page of GitHub's `/search/users` answer.
public struct GithubSearchPage: Codable, Equatable, Sendable {
    public var totalCount: Int
    public var items: [GithubSearchItem]

    public init(totalCount: Int, items: [GithubSearchItem]) {
        self.totalCount = totalCount
        self.items = items
    }

    enum CodingKeys: String, CodingKey {
        case totalCount = "total_count"
        case items
    }
}

/// The outcome of a search: the page, or why there is none (the seed's `catch { Just([]) }`).
public struct SearchResult: Equatable, Sendable {
    /// The status the `/ws/search` `search` event reports.
    public enum Status: String, Codable, Sendable {
        /// GitHub answered (`items` may be empty).
        case ok
        /// The text was empty once trimmed: nothing was asked.
        case empty
        /// The text is too long, or GitHub rejected the query (422): nothing to show.
        case invalid
        case rateLimited = "rate_limited"
        case unavailable
    }

    /// The search text, as typed.
    public var query: String
    public var status: Status
    public var totalCount: Int
    /// The users found (`[]` for every status but `ok`).
    public var items: [GithubSearchItem]
    /// The upstream failure behind `invalid` (422), `rateLimited` and `unavailable`.
    public var failure: GithubError?
    /// The page is a cached copy served because the upstream failed (stale-if-error).
    public var stale: Bool

    /// `rateLimited` by the caller's own allowance, not GitHub's (the `"scope":"client"` field).
    public var limitedByClient: Bool {
        if case .clientRateLimited = failure { true } else { false }
    }

    public init(
        query: String, status: Status, totalCount: Int = 0, items: [GithubSearchItem] = [], failure: GithubError? = nil,
        stale: Bool = false
    ) {
        self.query = query
        self.status = status
        self.totalCount = totalCount
        self.items = items
        self.failure = failure
        self.stale = stale
    }

    /// The result for a page GitHub sent (now, or earlier when `stale`).
    public init(query: String, page: GithubSearchPage, stale: Bool = false) {
        self.init(query: query, status: .ok, totalCount: page.totalCount, items: page.items, stale: stale)
    }

    /// The result for a failed search.
    public init(query: String, failure: GithubError) {
        let status: Status
        switch failure {
        case .rejected: status = .invalid
        case .rateLimited, .clientRateLimited: status = .rateLimited
        case .notFound, .timeout, .unavailable, .invalidResponse: status = .unavailable
        }
        self.init(query: query, status: status, failure: failure)
    }
}

extension GithubSearchPage {
    /// An estimate of a page's bytes in memory, for the cache's byte bound.
    @Sendable public static func estimatedBytes(_ page: GithubSearchPage) -> Int {
        64 + page.items.reduce(0) { total, item in
            total + 80 + item.login.utf8.count + (item.avatarURL?.utf8.count ?? 0) + (item.htmlURL?.utf8.count ?? 0)
        }
    }
}

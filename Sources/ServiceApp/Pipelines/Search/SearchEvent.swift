import GithubProxy
import PipelineWire

/// A server → client event of `/ws/search`: one JSON object, one line, one text frame.
enum SearchEvent: Equatable {
    case hello(debounceMs: Int, refreshDelayMs: Int)
    case activity(active: Bool)
    /// The refresh gesture began (`true`) or its search was sent (`false`).
    case refreshing(active: Bool)
    case search(SearchResult)
    case error(code: String, message: String)

    /// The event as the single-line JSON text the contract defines (keys sorted).
    var json: String {
        var writer = JSONWriter(capacity: 128)
        writer.beginObject()
        switch self {
        case .hello(let debounceMs, let refreshDelayMs):
            writer.member("debounceMs", integer: debounceMs)
            writer.member("pipeline", string: PipelineDescriptor.search.name)
            writer.member("refreshDelayMs", integer: refreshDelayMs)
            writer.member("type", string: "hello")
        case .activity(let active):
            writer.member("active", bool: active)
            writer.member("type", string: "activity")
        case .refreshing(let active):
            writer.member("active", bool: active)
            writer.member("type", string: "refreshing")
        case .search(let result):
            writer.beginArray("items")
            if result.status == .ok {
                for item in result.items { writer.searchItem(item) }
            }
            writer.endArray()
            writer.member("query", string: result.query)
            // As on `result` events: `scope` "client" under fair use, `stale` for a cached copy
            // served because GitHub failed; both absent otherwise.
            if result.limitedByClient { writer.member("scope", string: "client") }
            if result.stale { writer.member("stale", bool: true) }
            writer.member("status", string: result.status.rawValue)
            writer.member("total_count", integer: result.totalCount)
            writer.member("type", string: "search")
        case .error(let code, let message):
            return GithubUserEvent.error(code: code, message: message).json
        }
        writer.endObject()
        return writer.text
    }
}

extension JSONWriter {
    /// One user of a search page: `avatar_url` and `html_url` only when present.
    mutating func searchItem(_ item: GithubSearchItem) {
        beginObject()
        if let avatarURL = item.avatarURL { member("avatar_url", string: avatarURL) }
        if let htmlURL = item.htmlURL { member("html_url", string: htmlURL) }
        member("id", integer: item.id)
        member("login", string: item.login)
        endObject()
    }
}

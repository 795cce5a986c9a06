import Foundation
import GithubProxy

/// A server → client event of `/ws/search`: one JSON object, one line, one text frame.
enum SearchEvent: Equatable {
    case hello(debounceMs: Int, refreshDelayMs: Int)
    case activity(active: Bool)
    /// The refresh gesture began (`true`) or its search was sent (`false`).
    case refreshing(active: Bool)
    case search(SearchResult)
    case error(code: String, message: String)

    /// The event as the single-line JSON text the contract defines.
    var json: String {
        let data: Data
        switch self {
        case .hello(let debounceMs, let refreshDelayMs):
            data = EventJSON.encode(Hello(type: "hello", pipeline: PipelineDescriptor.search.name, debounceMs: debounceMs, refreshDelayMs: refreshDelayMs))
        case .activity(let active):
            data = EventJSON.encode(Flag(type: "activity", active: active))
        case .refreshing(let active):
            data = EventJSON.encode(Flag(type: "refreshing", active: active))
        case .search(let result):
            data = EventJSON.encode(Search(
                type: "search", query: result.query, status: result.status.rawValue, total_count: result.totalCount,
                items: result.status == .ok ? result.items : [], stale: result.stale ? true : nil,
                scope: result.limitedByClient ? "client" : nil
            ))
        case .error(let code, let message):
            return GithubUserEvent.error(code: code, message: message).json
        }
        return String(decoding: data, as: UTF8.self)
    }

    private struct Hello: Encodable {
        let type: String, pipeline: String, debounceMs: Int, refreshDelayMs: Int
    }

    private struct Flag: Encodable {
        let type: String, active: Bool
    }

    private struct Search: Encodable {
        let type: String, query: String, status: String, total_count: Int, items: [GithubSearchItem]
        /// Present (true) only for a cached copy served because GitHub failed.
        let stale: Bool?
        /// `"client"` when `rate_limited` by this client's own allowance (fair use).
        let scope: String?
    }
}

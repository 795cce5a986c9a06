import Dispatch
import Foundation
import StreamCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension GithubClient {
    /// The longest search text sent upstream (GitHub rejects queries over 256 characters).
    public static let maxSearchQueryLength = 256

    /// The search bar's lookup (the seed's search with pull-to-refresh, on GitHub's
    /// `/search/users`): never fails, and says why the list is empty.
    ///
    /// - text empty once trimmed → `empty`, without a request;
    /// - longer than `maxSearchQueryLength` → `invalid`, without a request;
    /// - else `GET /search/users?q=…&per_page=…`, with `activity` told when it starts and when it
    ///   completes or is cancelled, status check, decoding, the retry policy, and failures caught
    ///   into an empty page with the matching status (422 → `invalid`).
    ///
    /// Searches spend GitHub's `search` rate-limit resource (`searchBudget`), never `core`, and
    /// one request of `quota` each (refused: `rate_limited` with the client scope, no request).
    ///
    /// `retries`: how many times a failed search is subscribed to again before it is caught
    /// (Combine's `retry`, a composed pipeline's `retry` stage); each time is a new request,
    /// charged to `quota` like the first.
    public func search(
        query: String, perPage: Int = 10, activity: NetworkActivity? = nil, quota: (any UpstreamQuota)? = nil, retries: Int = 0
    ) -> AnyPublisher<SearchResult, Never> {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return Just(SearchResult(query: query, status: .empty)).eraseToAnyPublisher() }
        guard text.count <= Self.maxSearchQueryLength else {
            return Just(SearchResult(query: query, status: .invalid)).eraseToAnyPublisher()
        }
        let key = "\(perPage) \(text)"
        // The stages, in order: cache, activity, quota, retry, then one `upstreamAttempt` (gate,
        // budget, transfer); a failure is the stale page or an empty one with its status.
        return Deferred { [self] () -> AnyPublisher<SearchResult, Never> in
            if let entry = searchCache.fresh(for: key), let page = entry.value {
                events.served(.fresh)
                return Just(SearchResult(query: query, page: page)).eraseToAnyPublisher()
            }
            // Known at once to be refused (`search` paused, `quota` spent): no activity.
            let refused: AnyPublisher<GithubSearchPage, GithubError>? = refusedAtOnce("search", quota: quota)
            return (refused ?? charged(to: quota) { [self] in
                withRetries(label: text) { [self] in
                    upstreamAttempt("search") { [self] in
                        UpstreamRequest(
                            request: searchRequest(text: text, perPage: perPage),
                            answer: { [self] data, response in try searchPage(from: data, response: response, key: key) }
                        )
                    }
                }
            }
            .reportingActivity(to: activity))
            .retry(retries)
            .map { SearchResult(query: query, page: $0) }
            .catch { [self] error -> Just<SearchResult> in
                if error.allowsStaleCopy, let page = searchCache.staleIfError(for: key)?.value {
                    events.served(.stale)
                    return Just(SearchResult(query: query, page: page, stale: true))
                }
                return Just(SearchResult(query: query, failure: error))
            }
            .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// `GET /search/users?q=<text>&per_page=<perPage>`, every character but the unreserved ones
    /// percent-encoded (a `+` must reach GitHub as `%2B`, not as a space).
    func searchRequest(text: String, perPage: Int) -> URLRequest {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let q = text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
        var components = URLComponents(url: configuration.baseURL.appendingPathComponent("search/users"), resolvingAgainstBaseURL: false)
        components?.percentEncodedQuery = "q=\(q)&per_page=\(min(100, max(1, perPage)))"
        let url = components?.url ?? configuration.baseURL.appendingPathComponent("search/users")
        return apiRequest(url: url)
    }

    /// The status check and decoding of a search answer, plus the cache and the `search` budget.
    private func searchPage(from data: Data, response: CurlResponseHead, key: String) throws -> GithubSearchPage {
        let pause = readLimits(response, body: data, expected: "search")
        switch response.statusCode {
        case 200:
            do {
                let page = try JSONDecoder().decode(GithubSearchPage.self, from: data)
                let directives = CacheDirectives { response.value(forHTTPHeaderField: $0) }
                searchCache.store(page, etag: nil, directives: directives, for: key)
                return page
            } catch {
                throw GithubError.invalidResponse("undecodable search answer: \(error)")
            }
        case 422:
            throw GithubError.rejected("GitHub rejected the search query (422)")
        default:
            throw GithubError(statusCode: response.statusCode, rateLimitWait: pause?.seconds)
        }
    }
}

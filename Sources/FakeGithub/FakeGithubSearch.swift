import Foundation
import HTTPServer
import Locking

/// The fake's `GET /search/users?q=…&per_page=…`: the fixture users whose login contains the
/// query (case-insensitive), shaped like GitHub's search answer, under the `search` rate-limit
/// resource (its own remaining count, 30 a minute as GitHub's authenticated search limit), with
/// faults queued for the next searches. A query that is empty (after trimming) or longer than
/// 256 characters is rejected with 422, as GitHub rejects it.
final class FakeGithubSearch: Sendable {
    private struct State: Sendable {
        var faults: [FakeGithubFault] = []
        var remaining = 29
        var queries: [String] = []
    }
    private let state = Locked(State())

    /// What `x-ratelimit-remaining` says on search answers.
    var rateLimitRemaining: Int {
        get { state.withLock { $0.remaining } }
        set { state.withLock { $0.remaining = newValue } }
    }

    /// The `q` of every search received, oldest first.
    var receivedQueries: [String] { state.withLock { $0.queries } }

    func script(_ faults: [FakeGithubFault]) { state.withLock { $0.faults.append(contentsOf: faults) } }

    func clearLog() { state.withLock { $0.queries = [] } }

    /// Answers a search among `users`, after `hold` (a `.delay` fault).
    func respond(to request: HTTPRequest, users: [FakeGithubUser], baseURL: String) -> (response: HTTPResponse, hold: Duration) {
        let (response, fault) = answer(request, users: users, baseURL: baseURL)
        if case .delay(let delay)? = fault { return (response, max(.zero, delay)) }
        return (response, .zero)
    }

    private func answer(_ request: HTTPRequest, users: [FakeGithubUser], baseURL: String) -> (HTTPResponse, FakeGithubFault?) {
        let parameters = Self.parameters(request.query ?? "")
        let query = parameters["q"] ?? ""
        let perPage = min(100, max(1, parameters["per_page"].flatMap(Int.init) ?? 30))
        let (fault, remaining) = state.withLock { state -> (FakeGithubFault?, Int) in
            state.queries.append(query)
            return (state.faults.isEmpty ? nil : state.faults.removeFirst(), state.remaining)
        }
        var headers = Self.rateLimitHeaders(remaining: remaining, resetIn: 60)
        switch fault {
        case .status(let code)?:
            return (FakeGithubState.error(code, headers: headers), fault)
        case .rateLimited(let status, let retryAfter, let resetIn)?:
            headers = Self.rateLimitHeaders(remaining: 0, resetIn: resetIn)
            if let retryAfter { headers.set("Retry-After", String(retryAfter)) }
            return (FakeGithubState.error(status, message: "API rate limit exceeded for 127.0.0.1.", headers: headers), fault)
        case .secondaryRateLimited(let status, let retryAfter)?:
            return (FakeGithubState.secondaryLimit(status: status, retryAfter: retryAfter, headers: headers), fault)
        case .invalidJSON?:
            headers.set("Content-Type", "application/json; charset=utf-8")
            return (HTTPResponse(status: .ok, headers: headers, body: .bytes(Array("<html>unicorn</html>".utf8))), fault)
        case nil, .delay?, .resetMidBody?:
            break
        }
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 256 else {
            return (FakeGithubState.error(422, message: "Validation Failed", headers: headers), fault)
        }
        let matches = users.filter { $0.login.lowercased().contains(trimmed.lowercased()) }.sorted { $0.id < $1.id }
        let items = matches.prefix(perPage).map { user -> [String: Any] in
            [
                "login": user.login, "id": user.id, "node_id": "U_fake\(user.id)",
                "avatar_url": FakeGithubAvatar.url(baseURL: baseURL, id: user.id),
                "html_url": "https://github.com/\(user.login)", "type": "User", "score": 1.0,
            ]
        }
        let body: [String: Any] = ["total_count": matches.count, "incomplete_results": false, "items": items]
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        headers.set("Content-Type", "application/json; charset=utf-8")
        headers.set("Cache-Control", "no-cache")
        return (HTTPResponse(status: .ok, headers: headers, body: .bytes(Array(data))), fault)
    }

    /// The query's parameters, percent- and plus-decoded (`q=a+b` is `a b`).
    static func parameters(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            result[decode(parts[0])] = parts.count == 2 ? decode(parts[1]) : ""
        }
        return result
    }

    private static func rateLimitHeaders(remaining: Int, resetIn: Int) -> HTTPHeaders {
        FakeGithubState.rateLimitHeaders(limit: 30, remaining: remaining, resetIn: resetIn, resource: "search")
    }
}

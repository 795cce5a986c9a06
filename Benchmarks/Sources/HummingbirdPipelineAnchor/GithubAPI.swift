import AsyncHTTPClient
import Dispatch
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import OpenCombine

/// The part of GitHub's `/users/{login}` answer the `/ws` result carries, field names as GitHub
/// spells them; `name` (and any absent field) is written as `null`, as the service does.
struct GithubUser: Codable, Sendable {
    var login: String
    var id: Int
    var name: String?
    var public_repos: Int?
    var avatar_url: String?
    var html_url: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(login, forKey: .login)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(public_repos, forKey: .public_repos)
        try container.encode(avatar_url, forKey: .avatar_url)
        try container.encode(html_url, forKey: .html_url)
    }
}

/// What a lookup produced: the seed's `[GithubAPIUser]`, plus why it is empty (the `status` of
/// the `/ws` result event).
struct LookupResult: Sendable {
    var query: String
    var status: String
    var users: [GithubUser]
}

/// Why an upstream lookup failed.
enum LookupFailure: Error {
    case notFound
    case rateLimited
    case unavailable(String)
}

/// A plain in-memory cache of lookups: login (lower-cased) → the user, or nil for a 404, each
/// kept `ttl` (60 s, GitHub's `max-age` for users). No bound, no revalidation, no sharing of
/// requests in flight: what a first version of such a service would have.
final class UserCache: Sendable {
    private struct Entry {
        var user: GithubUser?
        var expires: DispatchTime
    }

    private let entries = NIOLockedValueBox<[String: Entry]>([:])
    private let ttl: DispatchTimeInterval

    init(ttl: DispatchTimeInterval) { self.ttl = ttl }

    /// The cached answer for `login` while fresh: `.some(user)` or `.some(nil)` for a 404.
    func answer(for login: String) -> GithubUser?? {
        let now = DispatchTime.now()
        return entries.withLockedValue { entries -> GithubUser?? in
            guard let entry = entries[login.lowercased()], entry.expires > now else { return .none }
            return .some(entry.user)
        }
    }

    func store(_ user: GithubUser?, for login: String) {
        let entry = Entry(user: user, expires: .now() + ttl)
        entries.withLockedValue { $0[login.lowercased()] = entry }
    }
}

/// The seed's `GithubAPI`: `retrieveGithubUser(username:)` over AsyncHTTPClient, with the
/// cache in front.
struct GithubAPI: Sendable {
    let client: HTTPClient
    let baseURL: String
    let minLength: Int
    let cache: UserCache
    let timeout: TimeAmount

    private static let headers: HTTPHeaders = [
        "Accept": "application/vnd.github+json",
        "User-Agent": "HummingbirdPipelineAnchor",
    ]

    /// The lookup of `username` for one session: never fails.
    ///
    /// - shorter than `minLength` → `too_short`, no request (the seed's `Just([])`);
    /// - not a valid login → `invalid`, no request;
    /// - cached and fresh → the cached answer, no request, no activity;
    /// - else `GET /users/{login}`, with `activity` told `true` on subscription and `false` on
    ///   completion or cancel (the seed's `handleEvents`), the status checked (`tryMap`), the
    ///   body decoded, and every failure caught into an empty list with its status (`catch`).
    ///
    /// Values arrive on `queue`, the session's queue, where the caller subscribes and cancels.
    func retrieveGithubUser(
        username: String, activity: PassthroughSubject<Bool, Never>, queue: DispatchQueue
    ) -> AnyPublisher<LookupResult, Never> {
        guard username.count >= minLength else {
            return Just(LookupResult(query: username, status: "too_short", users: [])).eraseToAnyPublisher()
        }
        guard Self.isValidLogin(username) else {
            return Just(LookupResult(query: username, status: "invalid", users: [])).eraseToAnyPublisher()
        }
        if let cached = cache.answer(for: username) {
            let result = cached.map { LookupResult(query: username, status: "found", users: [$0]) }
                ?? LookupResult(query: username, status: "not_found", users: [])
            return Just(result).eraseToAnyPublisher()
        }
        let cache = self.cache
        return client.dataTaskPublisher(for: "\(baseURL)/users/\(username)", headers: Self.headers, timeout: timeout, queue: queue)
            .handleEvents(
                receiveSubscription: { _ in activity.send(true) },
                receiveCompletion: { _ in activity.send(false) },
                receiveCancel: { activity.send(false) }
            )
            .tryMap { response -> GithubUser in
                switch response.status.code {
                case 200:
                    guard let body = response.body else { throw LookupFailure.unavailable("empty body") }
                    let user = try JSONDecoder().decode(GithubUser.self, from: Data(body.readableBytesView))
                    cache.store(user, for: username)
                    return user
                case 404:
                    cache.store(nil, for: username)
                    throw LookupFailure.notFound
                case 403, 429:
                    throw LookupFailure.rateLimited
                default:
                    throw LookupFailure.unavailable("HTTP \(response.status.code)")
                }
            }
            .map { LookupResult(query: username, status: "found", users: [$0]) }
            .catch { error -> Just<LookupResult> in
                let status = switch error as? LookupFailure {
                case .notFound: "not_found"
                case .rateLimited: "rate_limited"
                case .unavailable, nil: "unavailable"
                }
                return Just(LookupResult(query: username, status: status, users: []))
            }
            .eraseToAnyPublisher()
    }

    /// GitHub's rule: 1–39 ASCII letters, digits and single hyphens, no hyphen at either end.
    static func isValidLogin(_ login: String) -> Bool {
        let bytes = Array(login.utf8)
        guard (1...39).contains(bytes.count), bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-") else { return false }
        var previous: UInt8 = 0
        for byte in bytes {
            let alphanumeric = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            guard alphanumeric || (byte == UInt8(ascii: "-") && previous != byte) else { return false }
            previous = byte
        }
        return true
    }
}

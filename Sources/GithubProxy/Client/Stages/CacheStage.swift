import Foundation
import SharedState
import StreamCore

extension GithubClient {
    /// The cache stage's answer for `key`: the fresh copy in this replica's cache (a remembered
    /// `404` fails `notFound`), counted as served from the cache; nil when there is none.
    func freshAnswer(for key: String) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError>? {
        guard let entry = cache.fresh(for: key) else { return nil }
        events.served(.fresh)
        guard let user = entry.value else { return Fail(error: .notFound).eraseToAnyPublisher() }
        return Just(answer(user, .fresh, entry, in: cache)).setFailureType(to: GithubError.self).eraseToAnyPublisher()
    }

    /// The cache stage: a fresh copy of `key` here, else on another replica (taken into this
    /// replica's cache, where a stale one at least gives the conditional request its ETag), else
    /// `upstream`.
    func fromCache(
        _ key: String, else upstream: @escaping () -> AnyPublisher<CachedAnswer<GithubUser>, GithubError>
    ) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
        Deferred { [self] () -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
            if let fresh = freshAnswer(for: key) { return fresh }
            guard let sharedCache else { return upstream() }
            return Self.load(key, from: sharedCache)
                .setFailureType(to: GithubError.self)
                .flatMap(maxPublishers: .max(1)) { [self] shared -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
                    if let shared { adopt(shared, for: key) }
                    return freshAnswer(for: key) ?? upstream()
                }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// The stale-if-error stage: when `upstream` fails as unavailable, timed out or rate
    /// limited, a copy of `key` at most `cache.staleIfError` old is served as `.stale`.
    func staleIfError(
        _ key: String, _ upstream: AnyPublisher<CachedAnswer<GithubUser>, GithubError>
    ) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
        upstream
            .catch { [self] error -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
                guard error.allowsStaleCopy, let entry = cache.staleIfError(for: key), let user = entry.value else {
                    return Fail(error: error).eraseToAnyPublisher()
                }
                events.served(.stale)
                return Just(answer(user, .stale, entry, in: cache)).setFailureType(to: GithubError.self).eraseToAnyPublisher()
            }
            .eraseToAnyPublisher()
    }

    /// Takes a shared entry into this replica's cache (a body that does not decode is ignored).
    func adopt(_ shared: SharedEntry, for key: String) {
        var user: GithubUser?
        if let body = shared.body {
            guard let decoded = try? JSONDecoder().decode(GithubUser.self, from: body) else { return }
            user = decoded
        }
        cache.adopt(user, etag: shared.etag, storedAt: shared.storedAt, freshUntil: shared.freshUntil, for: key)
    }

    /// Shares `entry` (just received or confirmed) with the other replicas.
    func share(_ entry: ResponseCache<GithubUser>.Entry?, body: Data?, for key: String) {
        guard let sharedCache, let entry else { return }
        let shared = SharedEntry(body: body, etag: entry.etag, storedAt: entry.storedAt, freshUntil: entry.freshUntil)
        sharedCache.save(key, shared, ttl: cache.sharedLifetime(of: entry))
    }

    /// A cached answer as served now.
    func answer<Value>(
        _ value: Value, _ source: CachedAnswer<Value>.Source, _ entry: ResponseCache<Value>.Entry, in cache: ResponseCache<Value>
    ) -> CachedAnswer<Value> {
        let (age, ttl) = cache.ageAndTTL(of: entry)
        return CachedAnswer(value: value, source: source, age: age, ttl: ttl)
    }
}

extension GithubError {
    /// Whether a cached copy may stand in for the answer (RFC 5861's stale-if-error): the
    /// upstream could not be reached, timed out, failed, or is rate-limited.
    var allowsStaleCopy: Bool {
        switch self {
        case .unavailable, .timeout, .rateLimited, .clientRateLimited: true
        case .notFound, .invalidResponse, .rejected: false
        }
    }
}

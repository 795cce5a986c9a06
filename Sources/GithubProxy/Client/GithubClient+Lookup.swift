import Dispatch
import Foundation
import SharedState
import StreamCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension GithubClient {
    /// The seed's `GithubAPI.retrieveGithubUser(username:)`: never fails, and says why the list is
    /// empty.
    ///
    /// - input shorter than `minLength` → `too_short`, without a request (the seed's `Just([])`);
    /// - not a valid login → `invalid`, without a request;
    /// - else `userAnswer(login:activity:)`: the cache while fresh (no request, no activity),
    ///   else the upstream lookup with `activity` told when it starts and when it completes or is
    ///   cancelled (the seed's `handleEvents` feeding `networkActivityPublisher`), caught into an
    ///   empty list with the matching status — or the stale copy when the upstream failed.
    public func retrieveGithubUser(
        username: String, activity: NetworkActivity? = nil, quota: (any UpstreamQuota)? = nil
    ) -> AnyPublisher<LookupResult, Never> {
        guard username.count >= configuration.minLength else {
            return Just(LookupResult(query: username, status: .tooShort)).eraseToAnyPublisher()
        }
        guard GithubLogin.isValid(username) else {
            return Just(LookupResult(query: username, status: .invalid)).eraseToAnyPublisher()
        }
        return userAnswer(login: username, activity: activity, quota: quota)
            .map { LookupResult(query: username, status: .found, users: [$0.value], stale: $0.source == .stale) }
            .catch { Just(LookupResult(query: username, failure: $0)) }
            .eraseToAnyPublisher()
    }

    /// The user `login` and where the answer came from: a fresh cached copy (or a remembered
    /// `404`) without a request; else one upstream request shared by every concurrent lookup of
    /// the login (conditional when a copy is cached, retried when transient, waiting its turn at
    /// `gate`), with `activity` around it; when that fails as unavailable, timed out or rate
    /// limited, a copy at most `cache.staleIfError` old is served as `.stale`. A login that is
    /// not valid fails `notFound` at once: it never reaches the upstream URL. A new upstream
    /// request (not one joined) is first charged to `quota`; refused, the lookup fails
    /// `clientRateLimited` without a request (or gets the stale copy).
    public func userAnswer(
        login: String, activity: NetworkActivity? = nil, quota: (any UpstreamQuota)? = nil
    ) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
        guard GithubLogin.isValid(login) else { return Fail(error: .notFound).eraseToAnyPublisher() }
        let key = login.lowercased()
        return Deferred { [self] () -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
            if let entry = cache.fresh(for: key) {
                events.served(.fresh)
                guard let user = entry.value else { return Fail(error: .notFound).eraseToAnyPublisher() }
                return Just(answer(user, .fresh, entry, in: cache)).setFailureType(to: GithubError.self).eraseToAnyPublisher()
            }
            guard let sharedCache else { return upstreamAnswer(login: login, key: key, activity: activity, quota: quota) }
            // Another replica may have it: a fresh shared copy is served without a request, a
            // stale one at least gives the conditional request its ETag.
            return Self.load(key, from: sharedCache)
                .setFailureType(to: GithubError.self)
                .flatMap(maxPublishers: .max(1)) { [self] shared -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
                    if let shared { adopt(shared, for: key) }
                    if let entry = cache.fresh(for: key) {
                        events.served(.fresh)
                        guard let user = entry.value else { return Fail(error: .notFound).eraseToAnyPublisher() }
                        return Just(answer(user, .fresh, entry, in: cache)).setFailureType(to: GithubError.self).eraseToAnyPublisher()
                    }
                    return upstreamAnswer(login: login, key: key, activity: activity, quota: quota)
                }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// The upstream part of `userAnswer`: the shared request with `activity` around it, and the
    /// stale copy when it fails.
    private func upstreamAnswer(
        login: String, key: String, activity: NetworkActivity?, quota: (any UpstreamQuota)?
    ) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
            let token = ActivityToken()
            return sharedLookup(login: login, key: key, quota: quota)
                .handleEvents(
                    receiveSubscription: { _ in token.value = activity?.begin() },
                    receiveCompletion: { _ in token.take().map { activity?.end($0) } },
                    receiveCancel: { token.take().map { activity?.end($0) } }
                )
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
    private func share(_ entry: ResponseCache<GithubUser>.Entry?, body: Data?, for key: String) {
        guard let sharedCache, let entry else { return }
        let shared = SharedEntry(body: body, etag: entry.etag, storedAt: entry.storedAt, freshUntil: entry.freshUntil)
        sharedCache.save(key, shared, ttl: cache.sharedLifetime(of: entry))
    }

    /// The upstream lookup of `login`, shared by concurrent subscribers (on this replica, and
    /// with shared flights on all); a new one is charged to `quota` first.
    private func sharedLookup(login: String, key: String, quota: (any UpstreamQuota)?) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
        if let running = coalescer.running(key) { return joined(running, login: login, quota: quota) }
        // Another replica's flight is joined free, like a request in flight here; only a
        // request of this replica's own is charged.
        return acrossReplicas(key: key) { [self] flight in
            charge(quota)
                .setFailureType(to: GithubError.self)
                .flatMap(maxPublishers: .max(1)) { [self] wait -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
                    if let wait {
                        flight.land()
                        return clientRateLimited(wait)
                    }
                    let (shared, made) = coalescer.publisher(for: key) { [self] in
                        withRetries(label: login) { [self] in attempt(login: login) }
                            .handleEvents(receiveCompletion: { _ in flight.land() }, receiveCancel: flight.land)
                            .eraseToAnyPublisher()
                    }
                    // A new request ends the flight when it ends. One started here meanwhile
                    // is joined instead (the charge was this caller's all the same), and this
                    // replica's flight, if any, ends now.
                    if made { flight.handOver() } else { flight.land() }
                    return joined(shared, login: login, quota: quota)
                }
                .eraseToAnyPublisher()
        }
    }

    /// The answer of a shared request; one that finished just as it was joined (no value) is
    /// asked again on this caller's own, charged.
    private func joined(
        _ shared: AnyPublisher<CachedAnswer<GithubUser>, GithubError>, login: String, quota: (any UpstreamQuota)?
    ) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
        shared
            .map(Optional.some)
            .replaceEmpty(with: nil)
            .flatMap(maxPublishers: .max(1)) { [self] answer -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
                if let answer { return Just(answer).setFailureType(to: GithubError.self).eraseToAnyPublisher() }
                return charge(quota)
                    .setFailureType(to: GithubError.self)
                    .flatMap(maxPublishers: .max(1)) { [self] wait -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
                        if let wait { return clientRateLimited(wait) }
                        return withRetries(label: login) { [self] in attempt(login: login) }
                    }
                    .eraseToAnyPublisher()
            }
            .eraseToAnyPublisher()
    }

    /// One upstream request, once `gate` lets it through and unless `core` is paused (here or,
    /// with a shared store, for all replicas).
    func attempt(login: String) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
        gate.admit { [self] () -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
            if let paused: AnyPublisher<CachedAnswer<GithubUser>, GithubError> = pausedFailure("core") { return paused }
            return whenSharedBudgetAllows("core") { [self] in
                let cached = cache.entry(for: login)
                let started = DispatchTime.now()
                return http.dataTaskPublisher(for: request(for: login, etag: cached?.value == nil ? nil : cached?.etag))
                    .mapError(GithubError.init(urlError:))
                    .tryMap { [self] data, response in try answer(from: data, response: response, cached: cached, login: login) }
                    .mapError { $0 as? GithubError ?? .invalidResponse("\($0)") }
                    .handleEvents(receiveCompletion: { [events] completion in
                        events.requested(outcome: completion.outcome, since: started)
                    })
                    .eraseToAnyPublisher()
            }
        }
    }

    /// The request for `login`, conditional when an ETag is known.
    func request(for login: String, etag: String?) -> URLRequest {
        var request = apiRequest(url: configuration.baseURL.appendingPathComponent("users").appendingPathComponent(login))
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        return request
    }

    /// The status check and decoding of the seed's `tryMap` + `decode`, plus the cache and the
    /// rate limits.
    private func answer(
        from data: Data, response: HTTPURLResponse, cached: ResponseCache<GithubUser>.Entry?, login: String
    ) throws -> CachedAnswer<GithubUser> {
        let header = { (name: String) in response.value(forHTTPHeaderField: name) }
        let pause = readLimits(response, body: data, expected: "core")
        switch response.statusCode {
        case 200:
            let user: GithubUser
            do {
                user = try JSONDecoder().decode(GithubUser.self, from: data)
            } catch {
                throw GithubError.invalidResponse("undecodable user: \(error)")
            }
            let directives = CacheDirectives(header: header)
            let entry = cache.store(user, etag: header("ETag"), directives: directives, for: login)
            share(entry, body: data, for: login)
            return CachedAnswer(value: user, source: .fetched, ttl: entry.map { cache.ageAndTTL(of: $0).ttl } ?? 0)
        case 304:
            guard let user = cached?.value else { throw GithubError.invalidResponse("304 without a cached user") }
            let entry = cache.revalidated(for: login, directives: CacheDirectives(header: header))
            share(entry, body: try? JSONEncoder().encode(user), for: login)
            events.cacheHit()
            return CachedAnswer(value: user, source: .revalidated, ttl: entry.map { cache.ageAndTTL(of: $0).ttl } ?? 0)
        case 404:
            share(cache.storeNotFound(for: login), body: nil, for: login)
            throw GithubError.notFound
        default:
            throw GithubError(statusCode: response.statusCode, rateLimitWait: pause?.seconds)
        }
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

/// The activity of one subscription; ended at most once.
final class ActivityToken: @unchecked Sendable {
    // Sendable: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: NetworkActivity.Token?

    var value: NetworkActivity.Token? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func take() -> NetworkActivity.Token? {
        lock.withLock {
            defer { stored = nil }
            return stored
        }
    }
}


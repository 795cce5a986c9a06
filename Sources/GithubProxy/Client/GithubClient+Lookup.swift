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
    /// - else `userAnswer(login:activity:)`: the cache while fresh (no request, no activity; a copy
    ///   fresh when the lookup is made is its answer whenever it is subscribed),
    ///   else the upstream lookup with `activity` told when it starts and when it completes or is
    ///   cancelled (the seed's `handleEvents` feeding `networkActivityPublisher`), caught into an
    ///   empty list with the matching status — or the stale copy when the upstream failed.
    ///
    /// `retries`: how many times a failed answer is subscribed to again before it is caught
    /// (Combine's `retry`, a composed pipeline's `retry` stage); each time is a new lookup, charged
    /// to `quota` like the first. The retry policy's own attempts come on top.
    public func retrieveGithubUser(
        username: String, activity: NetworkActivity? = nil, quota: (any UpstreamQuota)? = nil, retries: Int = 0
    ) -> AnyPublisher<LookupResult, Never> {
        // At least `minLength` characters, counted no further than that.
        guard username.index(username.startIndex, offsetBy: max(0, configuration.minLength), limitedBy: username.endIndex) != nil else {
            return Just(LookupResult(query: username, status: .tooShort)).eraseToAnyPublisher()
        }
        guard GithubLogin.isValid(username) else {
            return Just(LookupResult(query: username, status: .invalid)).eraseToAnyPublisher()
        }
        // A fresh copy (most lookups under load) is the answer, without the stages' subscriptions
        // (what it would be through them, as `userAnswer` serves it), looked up now: a pipeline
        // subscribes the lookup as it makes it. Otherwise the cache is asked again when the
        // lookup is subscribed.
        if let result = freshResult(username: username, retries: retries) { return Just(result).eraseToAnyPublisher() }
        return Deferred { [self] () -> AnyPublisher<LookupResult, Never> in
            if let result = freshResult(username: username, retries: retries) { return Just(result).eraseToAnyPublisher() }
            let answer = userAnswer(login: username, activity: activity, quota: quota)
            // `retry(0)` would only add a stage that passes everything on.
            return (retries > 0 ? answer.retry(retries).eraseToAnyPublisher() : answer)
                .map { LookupResult(query: username, status: .found, users: [$0.value], stale: $0.source == .stale) }
                .catch { Just(LookupResult(query: username, failure: $0)) }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// The result of a lookup of `username` that a fresh cached copy answers, counted as served
    /// fresh; nil when there is none, or when it is a remembered `404` to be retried (`retries`
    /// > 0: the stages serve it, once per attempt).
    private func freshResult(username: String, retries: Int) -> LookupResult? {
        guard let entry = cache.fresh(for: username), entry.value != nil || retries == 0 else { return nil }
        events.served(.fresh)
        guard let user = entry.value else { return LookupResult(query: username, failure: .notFound) }
        return LookupResult(query: username, status: .found, users: [user])
    }

    /// The user `login` and where the answer came from: a fresh cached copy (or a remembered
    /// `404`) without a request; else one upstream request shared by every concurrent lookup of
    /// the login (conditional when a copy is cached, retried when transient, waiting its turn at
    /// `gate`), with `activity` around it; when that fails as unavailable, timed out or rate
    /// limited, a copy at most `cache.staleIfError` old is served as `.stale`. A login that is
    /// not valid fails `notFound` at once: it never reaches the upstream URL. A new upstream
    /// request (not one joined) is first charged to `quota`; refused, the lookup fails
    /// `clientRateLimited` without a request (or gets the stale copy).
    ///
    /// A lookup known at once to be refused — `core` paused here, or `quota` spent — fails
    /// before the activity stage, so it reports no activity (`refusedAtOnce`).
    ///
    /// The stages, in order (each in `Stages/`): cache (here, then the replicas'), activity,
    /// stale-if-error, coalescing (a request in flight here), flights (another replica's),
    /// quota, retry, then one `upstreamAttempt`: gate, budget, transfer.
    public func userAnswer(
        login: String, activity: NetworkActivity? = nil, quota: (any UpstreamQuota)? = nil
    ) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
        guard GithubLogin.isValid(login) else { return Fail(error: .notFound).eraseToAnyPublisher() }
        let key = login.lowercased()
        return fromCache(key) { [self] in
            let joinable = coalescer.running(key) != nil
            let refused: AnyPublisher<CachedAnswer<GithubUser>, GithubError>? = joinable ? nil : refusedAtOnce("core", quota: quota)
            return staleIfError(key, refused ?? sharedLookup(login: login, key: key, quota: quota).reportingActivity(to: activity))
        }
    }

    /// The coalescing and flights stages: the upstream lookup of `login`, shared by concurrent
    /// subscribers (on this replica, and with shared flights on all); a new one is charged to
    /// `quota` first. Another replica's flight is joined free, like a request in flight here.
    private func sharedLookup(login: String, key: String, quota: (any UpstreamQuota)?) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
        if let running = coalescer.running(key) { return joined(running, login: login, quota: quota) }
        return acrossReplicas(key: key) { [self] flight in
            charged(to: quota, refused: flight.land) { [self] in
                let (shared, made) = coalescer.publisher(for: key) { [self] in
                    fetched(login)
                        .handleEvents(receiveCompletion: { _ in flight.land() }, receiveCancel: flight.land)
                        .eraseToAnyPublisher()
                }
                // A new request ends the flight when it ends. One started here meanwhile is
                // joined instead (the charge was this caller's all the same), and this replica's
                // flight, if any, ends now.
                if made { flight.handOver() } else { flight.land() }
                return joined(shared, login: login, quota: quota)
            }
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
                return charged(to: quota) { [self] in fetched(login) }
            }
            .eraseToAnyPublisher()
    }

    /// The retry stage around one upstream attempt for `login`.
    private func fetched(_ login: String) -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> {
        withRetries(label: login) { [self] in
            upstreamAttempt("core") { [self] in
                let cached = cache.entry(for: login)
                return UpstreamRequest(
                    request: request(for: login, etag: cached?.value == nil ? nil : cached?.etag),
                    answer: { [self] data, response in try answer(from: data, response: response, cached: cached, login: login) }
                )
            }
        }
    }

    /// The request for `login`, conditional when an ETag is known.
    func request(for login: String, etag: String?) -> URLRequest {
        var request = apiRequest(url: usersURL.appendingPathComponent(login))
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        return request
    }

    /// The status check and decoding of the seed's `tryMap` + `decode`, plus the cache and the
    /// rate limits.
    private func answer(
        from data: Data, response: CurlResponseHead, cached: ResponseCache<GithubUser>.Entry?, login: String
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
}

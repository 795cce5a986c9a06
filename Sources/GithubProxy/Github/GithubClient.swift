import Dispatch
import Foundation
import StreamCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of GitHub's `/users/{login}` that behaves as a good API citizen: conditional
/// requests from an ETag cache, a rate-limit budget that stops calling once it is spent,
/// retries of transient failures with backoff, and one upstream request for concurrent
/// lookups of the same login.
public final class GithubClient: Sendable {
    /// Where and how to reach GitHub.
    public struct Configuration: Sendable {
        /// `https://api.github.com`, or a local fake in tests.
        public var baseURL: URL
        /// Sent as `Authorization: Bearer …` when set; never logged.
        public var token: String?
        public var userAgent: String
        public var retry: RetryPolicy
        /// Inputs shorter than this are answered `too_short` without a request.
        public var minLength: Int

        public init(
            baseURL: URL = URL(string: "https://api.github.com")!, token: String? = nil,
            userAgent: String = "combine-server-github-proxy", retry: RetryPolicy = RetryPolicy(), minLength: Int = 3
        ) {
            self.baseURL = baseURL
            self.token = token
            self.userAgent = userAgent
            self.retry = retry
            self.minLength = minLength
        }
    }

    public let configuration: Configuration
    public let cache: ETagCache
    public let budget: RateLimitBudget
    /// GitHub's `search` rate-limit resource, kept apart from `budget` (`core`): spending the
    /// search quota never blocks user lookups.
    public let searchBudget: RateLimitBudget
    let http: CurlHTTPClient
    let scheduler: AnySchedulerOf<DispatchQueue>
    let coalescer = RequestCoalescer<GithubUser, GithubError>()
    let events: GithubClientEvents
    private let random: @Sendable () -> Double

    /// - Parameters:
    ///   - scheduler: where retry delays run (a `TestScheduler` in tests).
    ///   - random: jitter source, a value in 0..<1.
    public init(
        configuration: Configuration, http: CurlHTTPClient = CurlHTTPClient(),
        scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.global().eraseToAnyScheduler(),
        cache: ETagCache = ETagCache(), budget: RateLimitBudget = RateLimitBudget(),
        events: GithubClientEvents = GithubClientEvents(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        searchBudget: RateLimitBudget = RateLimitBudget()
    ) {
        self.searchBudget = searchBudget
        self.configuration = configuration
        self.http = http
        self.scheduler = scheduler
        self.cache = cache
        self.budget = budget
        self.events = events
        self.random = random
    }

    /// The user `login`, with retries, through the cache and budget. Concurrent subscriptions
    /// for one login share one upstream request. A login that is not valid fails `notFound`
    /// at once: it never reaches the upstream URL (GitHub has no such user anyway).
    public func user(login: String) -> AnyPublisher<GithubUser, GithubError> {
        guard GithubLogin.isValid(login) else { return Fail(error: .notFound).eraseToAnyPublisher() }
        let key = login.lowercased()
        return Deferred { [self] in
            coalescer.publisher(for: key) { self.userWithRetries(login: login) }
                .map(Optional.some)
                .replaceEmpty(with: nil)
                .flatMap(maxPublishers: .max(1)) { [self] user -> AnyPublisher<GithubUser, GithubError> in
                    if let user {
                        return Just(user).setFailureType(to: GithubError.self).eraseToAnyPublisher()
                    }
                    // Joined a shared request just as it finished: ask again on our own.
                    return userWithRetries(login: login)
                }
        }
        .eraseToAnyPublisher()
    }

    /// One lookup with the retry policy: transient failures are retried after a backoff delay on
    /// `scheduler`; other failures pass through at once.
    func userWithRetries(login: String) -> AnyPublisher<GithubUser, GithubError> {
        withRetries(label: login) { [self] in attempt(login: login) }
    }

    /// `attempt` with the retry policy: transient failures are retried after a backoff delay on
    /// `scheduler` (re-subscribing to a fresh attempt); other failures pass through at once.
    /// `label` names the lookup in retry events.
    func withRetries<Value>(
        label: String, _ attempt: @escaping () -> AnyPublisher<Value, GithubError>
    ) -> AnyPublisher<Value, GithubError> {
        let policy = configuration.retry
        return Deferred { [self] in
            let attempts = AttemptCounter()
            return Deferred(createPublisher: attempt)
                .map { Result<Value, GithubError>.success($0) }
                // Non-transient failures become values so that `retry` only sees transient ones;
                // a transient failure is re-raised after the backoff delay, and `retry`
                // re-subscribes to the whole attempt.
                .catch { [self] error -> AnyPublisher<Result<Value, GithubError>, GithubError> in
                    let retry = attempts.next()
                    guard error.isTransient, retry < policy.maxRetries else {
                        return Just(.failure(error)).setFailureType(to: GithubError.self).eraseToAnyPublisher()
                    }
                    events.retried(login: label, error: error)
                    let delay = policy.delayMilliseconds(beforeRetry: retry, random: random())
                    return Fail(error: error).delay(for: .milliseconds(delay), scheduler: scheduler).eraseToAnyPublisher()
                }
                .retry(policy.maxRetries)
                .flatMap { $0.publisher }
        }
        .eraseToAnyPublisher()
    }

    /// One upstream request.
    func attempt(login: String) -> AnyPublisher<GithubUser, GithubError> {
        Deferred { [self] () -> AnyPublisher<GithubUser, GithubError> in
            if let wait = budget.secondsUntilReset() {
                events.requested(outcome: "rate_limited_locally")
                return Fail(error: .rateLimited(retryAfterSeconds: wait)).eraseToAnyPublisher()
            }
            let cached = cache.entry(for: login)
            let started = DispatchTime.now()
            return http.dataTaskPublisher(for: request(for: login, etag: cached?.etag))
                .mapError(GithubError.init(urlError:))
                .tryMap { [self] data, response in
                    try user(from: data, response: response, cached: cached?.user, login: login)
                }
                .mapError { $0 as? GithubError ?? .invalidResponse("\($0)") }
                .handleEvents(receiveCompletion: { [events] completion in
                    events.requested(outcome: completion.outcome, since: started)
                })
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// The request for `login`, conditional when an ETag is known.
    func request(for login: String, etag: String?) -> URLRequest {
        var request = apiRequest(url: configuration.baseURL.appendingPathComponent("users").appendingPathComponent(login))
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        return request
    }

    /// A GET of `url` with the headers GitHub asks for, and the token when there is one.
    func apiRequest(url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
        request.setValue("2022-11-28", forHTTPHeaderField: "X-GitHub-Api-Version")
        if let token = configuration.token, !token.isEmpty {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        return request
    }

    /// The status check and decoding of the seed's `tryMap` + `decode`, plus the cache and budget.
    private func user(from data: Data, response: HTTPURLResponse, cached: GithubUser?, login: String) throws -> GithubUser {
        let header = { (name: String) in response.value(forHTTPHeaderField: name) }
        let wait = budget.update(statusCode: response.statusCode, header: header)
        switch response.statusCode {
        case 200:
            let user: GithubUser
            do {
                user = try JSONDecoder().decode(GithubUser.self, from: data)
            } catch {
                throw GithubError.invalidResponse("undecodable user: \(error)")
            }
            if let etag = header("ETag") { cache.store(user, etag: etag, for: login) }
            return user
        case 304:
            guard let cached else { throw GithubError.invalidResponse("304 without a cached user") }
            events.cacheHit()
            return cached
        case 404:
            throw GithubError.notFound
        default:
            throw GithubError(statusCode: response.statusCode, rateLimitWait: wait)
        }
    }
}

/// Counts attempts of one lookup (the catch closure may run on different threads).
private final class AttemptCounter: @unchecked Sendable {
    // Sendable: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0

    /// Returns the number of failures before this one.
    func next() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
}

extension GithubError {
    /// Classifies a transport error.
    init(urlError: URLError) {
        switch urlError.code {
        case .timedOut: self = .timeout
        default: self = .unavailable(urlError.localizedDescription)
        }
    }
}

extension Subscribers.Completion where Failure == GithubError {
    /// The metrics label of an upstream request's outcome.
    var outcome: String {
        switch self {
        case .finished: "ok"
        case .failure(.notFound): "not_found"
        case .failure(.rateLimited): "rate_limited"
        case .failure(.timeout): "timeout"
        case .failure(.unavailable): "unavailable"
        case .failure(.invalidResponse): "invalid_response"
        case .failure(.rejected): "rejected"
        }
    }
}

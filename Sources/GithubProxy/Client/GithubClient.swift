import Dispatch
import Foundation
import SharedState
@_spi(ServerSupport) import StreamCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of GitHub's `/users/{login}` and `/search/users` that keeps GitHub's manners: a
/// private HTTP cache (fresh answers without a request, conditional requests once stale, `404`s
/// remembered, stale copies when GitHub fails), rate limits per resource that stop calling once
/// spent or paused, at most `gate.limit` requests in flight, retries of transient failures with
/// backoff, and one upstream request for concurrent lookups of the same login.
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
    /// Users by login (case-insensitive), and remembered `404`s.
    public let cache: ResponseCache<GithubUser>
    /// Search pages by `per_page` and text, for stale-if-error.
    public let searchCache: ResponseCache<GithubSearchPage>
    /// Rate limits by GitHub resource.
    public let rateLimits: RateLimits
    /// The concurrency cap on upstream requests.
    public let gate: UpstreamGate
    /// The cache replicas share (Redis), behind `cache`; nil: this replica's cache only.
    public let sharedCache: (any SharedResponseStore)?
    /// The rate limits replicas share (Redis), next to `rateLimits`; nil: this replica's only.
    public let sharedRateLimits: (any SharedRateLimitStore)?
    /// Where replicas coalesce user lookups (Redis); nil (or no `sharedCache`): this replica's
    /// coalescing only.
    public let sharedFlights: (any SharedFlights)?
    /// How long a lookup waits for another replica's request for the same user before it
    /// fetches on its own.
    public let flightWait: TimeInterval
    let http: CurlHTTPClient
    let scheduler: AnySchedulerOf<DispatchQueue>
    let coalescer = RequestCoalescer<CachedAnswer<GithubUser>, GithubError>()
    let events: GithubClientEvents
    private let random: @Sendable () -> Double

    /// GitHub's `core` resource: user lookups.
    public var budget: RateLimitBudget { rateLimits.budget(for: "core") }
    /// GitHub's `search` resource, kept apart from `core`: spending the search quota never
    /// blocks user lookups.
    public var searchBudget: RateLimitBudget { rateLimits.budget(for: "search") }

    /// - Parameters:
    ///   - scheduler: where retry delays run (a `TestScheduler` in tests).
    ///   - budget, searchBudget: the `core` and `search` budgets to start from (tests pass ones
    ///     on a test clock); other resources get theirs on first use.
    ///   - random: jitter source, a value in 0..<1.
    public init(
        configuration: Configuration, http: CurlHTTPClient = CurlHTTPClient(),
        scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.global().eraseToAnyScheduler(),
        cache: ResponseCache<GithubUser> = ResponseCache(size: GithubUser.estimatedBytes),
        searchCache: ResponseCache<GithubSearchPage> = ResponseCache(size: GithubSearchPage.estimatedBytes),
        budget: RateLimitBudget = RateLimitBudget(), searchBudget: RateLimitBudget = RateLimitBudget(),
        gate: UpstreamGate = UpstreamGate(), sharedCache: (any SharedResponseStore)? = nil,
        sharedRateLimits: (any SharedRateLimitStore)? = nil,
        sharedFlights: (any SharedFlights)? = nil, flightWait: TimeInterval = 5,
        events: GithubClientEvents = GithubClientEvents(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.sharedCache = sharedCache
        self.sharedRateLimits = sharedRateLimits
        self.sharedFlights = sharedFlights
        self.flightWait = flightWait
        self.configuration = configuration
        self.http = http
        self.scheduler = scheduler
        self.cache = cache
        self.searchCache = searchCache
        rateLimits = RateLimits(budgets: ["core": budget, "search": searchBudget])
        self.gate = gate
        self.events = events
        self.random = random
    }

    /// The user `login` (see `userAnswer(login:)`), without where the answer came from.
    public func user(login: String) -> AnyPublisher<GithubUser, GithubError> {
        userAnswer(login: login).map(\.value).eraseToAnyPublisher()
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

    /// Reads the rate-limit headers of a response into the budget of the resource it names
    /// (`expected` when it names none), and shares them; returns the pause it began, if any.
    func readLimits(_ response: HTTPURLResponse, body: Data, expected: String) -> RateLimitBudget.Pause? {
        let header = { (name: String) in response.value(forHTTPHeaderField: name)?.trimmingCharacters(in: .whitespaces) }
        let resource = header("x-ratelimit-resource") ?? expected
        let pause = rateLimits.budget(for: resource).read(statusCode: response.statusCode, header: header, body: body)
        if let pause { events.paused(resource: resource, pause: pause) }
        if let sharedRateLimits {
            let reading = RateLimitReading(
                remaining: header("x-ratelimit-remaining").flatMap { Int($0) },
                reset: header("x-ratelimit-reset").flatMap { TimeInterval($0) }.map(Date.init(timeIntervalSince1970:)),
                pauseSeconds: pause?.seconds
            )
            sharedRateLimits.record(RateLimits.name(of: resource), reading)
        }
        return pause
    }

    /// `request`, once the replicas' shared budget of `resource` gives it one request; a spent or
    /// paused shared budget fails `rateLimited` without a request, and pauses this replica's
    /// budget as long. Without a shared store (or with it unreachable) `request` runs at once.
    func whenSharedBudgetAllows<Value>(
        _ resource: String, _ request: @escaping () -> AnyPublisher<Value, GithubError>
    ) -> AnyPublisher<Value, GithubError> {
        guard let sharedRateLimits else { return request() }
        return callbackPublisher { sharedRateLimits.take(RateLimits.name(of: resource), completion: $0) }
        .setFailureType(to: GithubError.self)
        .flatMap(maxPublishers: .max(1)) { [self] wait -> AnyPublisher<Value, GithubError> in
            guard let wait else { return request() }
            rateLimits.budget(for: resource).pause(seconds: wait)
            events.requested(outcome: "rate_limited_shared")
            return Fail(error: .rateLimited(retryAfterSeconds: wait)).eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// One request charged to `quota` (nil: no quota, allowed): nil when allowed, else the
    /// seconds to wait. Immediate unless the quota is shared by replicas.
    func charge(_ quota: (any UpstreamQuota)?) -> AnyPublisher<Int?, Never> {
        guard let quota else { return Just(nil).eraseToAnyPublisher() }
        return callbackPublisher { quota.spend(completion: $0) }
    }

    /// The local answer when the caller's own quota is spent: no request goes out.
    func clientRateLimited<Value>(_ seconds: Int) -> AnyPublisher<Value, GithubError> {
        events.requested(outcome: "client_rate_limited")
        return Fail(error: .clientRateLimited(retryAfterSeconds: seconds)).eraseToAnyPublisher()
    }

    /// The local answer while `resource` is paused: no request goes out.
    func pausedFailure<Value>(_ resource: String) -> AnyPublisher<Value, GithubError>? {
        guard let wait = rateLimits.budget(for: resource).secondsUntilReset() else { return nil }
        events.requested(outcome: "rate_limited_locally")
        return Fail(error: .rateLimited(retryAfterSeconds: wait)).eraseToAnyPublisher()
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
        case .failure(.clientRateLimited): "client_rate_limited"
        case .failure(.timeout): "timeout"
        case .failure(.unavailable): "unavailable"
        case .failure(.invalidResponse): "invalid_response"
        case .failure(.rejected): "rejected"
        }
    }
}

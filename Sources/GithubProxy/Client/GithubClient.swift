import Dispatch
import Foundation
import SharedState
import StreamCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of GitHub's `/users/{login}` and `/search/users` that keeps GitHub's manners: a
/// private HTTP cache (fresh answers without a request, conditional requests once stale, `404`s
/// remembered, stale copies when GitHub fails), rate limits per resource that stop calling once
/// spent or paused, at most `gate.limit` requests in flight, retries of transient failures with
/// backoff, and one upstream request for concurrent lookups of the same login.
///
/// A lookup goes through named stages (`Stages/`), in the order `userAnswer(login:)` and
/// `search(query:)` spell out: cache → activity → coalescing and flights → quota → retry →
/// gate → budget → transfer.
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
        /// How long a lookup waits for another replica's request for the same user before it
        /// fetches on its own (with shared flights).
        public var flightWait: Duration

        public init(
            baseURL: URL = URL(string: "https://api.github.com")!, token: String? = nil,
            userAgent: String = "combine-server-github-proxy", retry: RetryPolicy = RetryPolicy(), minLength: Int = 3,
            flightWait: Duration = .seconds(5)
        ) {
            self.baseURL = baseURL
            self.token = token
            self.userAgent = userAgent
            self.retry = retry
            self.minLength = minLength
            self.flightWait = flightWait
        }
    }

    /// The state replicas share (Redis), each behind this replica's own; nil: this replica's
    /// only.
    public struct ReplicaStores: Sendable {
        /// The cache replicas share, behind `cache`.
        public var cache: (any SharedResponseStore)?
        /// The rate limits replicas share, next to `rateLimits`.
        public var rateLimits: (any SharedRateLimitStore)?
        /// Where replicas coalesce user lookups (used only with `cache`, which carries the
        /// answer).
        public var flights: (any SharedFlights)?

        public init(
            cache: (any SharedResponseStore)? = nil, rateLimits: (any SharedRateLimitStore)? = nil,
            flights: (any SharedFlights)? = nil
        ) {
            self.cache = cache
            self.rateLimits = rateLimits
            self.flights = flights
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
    /// What replicas share.
    public let replicas: ReplicaStores
    let http: CurlHTTPClient
    let scheduler: AnySchedulerOf<DispatchQueue>
    let coalescer = RequestCoalescer<CachedAnswer<GithubUser>, GithubError>()
    let events: GithubClientEvents
    let random: @Sendable () -> Double
    /// `apiRequest(url:)` without its URL: the headers set once, not per request (Foundation's
    /// `setValue(_:forHTTPHeaderField:)` is costly on Linux).
    private let requestTemplate: URLRequest
    /// `baseURL/users`, the parent of every user lookup's URL.
    let usersURL: URL

    var sharedCache: (any SharedResponseStore)? { replicas.cache }
    var sharedRateLimits: (any SharedRateLimitStore)? { replicas.rateLimits }
    var sharedFlights: (any SharedFlights)? { replicas.flights }

    /// GitHub's `core` resource: user lookups.
    public var budget: RateLimitBudget { rateLimits.budget(for: "core") }
    /// GitHub's `search` resource, kept apart from `core`: spending the search quota never
    /// blocks user lookups.
    public var searchBudget: RateLimitBudget { rateLimits.budget(for: "search") }

    /// The client of `configuration`, with its collaborators.
    ///
    /// - Parameters:
    ///   - scheduler: where retry delays run (a `TestScheduler` in tests).
    ///   - rateLimits: the budgets by resource to start from (tests pass ones on a test clock).
    ///   - random: jitter source, a value in 0..<1.
    public init(
        configuration: Configuration, http: CurlHTTPClient = CurlHTTPClient(),
        scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.global().eraseToAnyScheduler(),
        cache: ResponseCache<GithubUser> = ResponseCache(size: GithubUser.estimatedBytes),
        searchCache: ResponseCache<GithubSearchPage> = ResponseCache(size: GithubSearchPage.estimatedBytes),
        rateLimits: RateLimits = RateLimits(), gate: UpstreamGate = UpstreamGate(),
        replicas: ReplicaStores = ReplicaStores(), events: GithubClientEvents = GithubClientEvents(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.configuration = configuration
        self.http = http
        self.scheduler = scheduler
        self.cache = cache
        self.searchCache = searchCache
        self.rateLimits = rateLimits
        self.gate = gate
        self.replicas = replicas
        self.events = events
        self.random = random
        var template = URLRequest(url: configuration.baseURL)
        template.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        template.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
        template.setValue("2022-11-28", forHTTPHeaderField: "X-GitHub-Api-Version")
        if let token = configuration.token, !token.isEmpty {
            template.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        requestTemplate = template
        usersURL = configuration.baseURL.appendingPathComponent("users")
    }

    /// The user `login` (see `userAnswer(login:)`), without where the answer came from.
    public func user(login: String) -> AnyPublisher<GithubUser, GithubError> {
        userAnswer(login: login).map(\.value).eraseToAnyPublisher()
    }

    /// A GET of `url` with the headers GitHub asks for, and the token when there is one.
    func apiRequest(url: URL) -> URLRequest {
        var request = requestTemplate
        request.url = url
        return request
    }
}

import Dispatch
import Foundation
import GithubProxy
import HTTPServer
import WebSocketPublishers
import Locking
import Logging
import Metrics
import PipelineWire
import StreamCore

/// The whole service: the GitHub client, the routes and the `/ws` pipelines on one HTTP server.
final class Service: Sendable {
    let config: ServiceConfig
    let server: HTTPServer
    let client: GithubClient
    /// The upstream HTTP client, whose driver thread the group stops last but one.
    let http: CurlHTTPClient
    let metrics: ServiceMetrics
    let fairUse: FairUse
    /// The state shared with other replicas through Redis, when `redis.url` is set.
    let sharing: ReplicaSharing?
    private let readiness = Readiness()
    /// Where the drain grace period is timed (the pipelines' scheduler: virtual in tests).
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let logger: Logger

    /// - Parameter scheduler: where throttle windows and retry delays run (a test scheduler in
    ///   tests). By default a session's pipeline runs its timers on its connection's event loop
    ///   (`docs/concurrency.md`), so its results need no hand-over to the thread that writes
    ///   them, and the GitHub client's retry delays and the drain's grace period run on Dispatch.
    init(config: ServiceConfig, logger: Logger, scheduler injected: AnySchedulerOf<DispatchQueue>? = nil) {
        let scheduler = injected ?? DispatchQueue.global().eraseToAnyScheduler()
        self.config = config
        self.scheduler = scheduler
        self.logger = logger
        let metrics = ServiceMetrics()
        self.metrics = metrics
        let http = CurlHTTPClient(configuration: .init(
            connectTimeout: config.upstream.connect, requestTimeout: config.upstream.request,
            maxConnectionsPerHost: config.upstream.maxConnections
        ))
        self.http = http
        let sharing = config.redis.client.map { ReplicaSharing(settings: config.redis, configuration: $0, logger: logger) }
        self.sharing = sharing
        let client = GithubClient(
            configuration: .init(
                baseURL: config.githubAPIURL, token: config.githubToken?.secretValue,
                retry: GithubProxy.RetryPolicy(
                    maxRetries: config.retry.maxRetries, baseDelay: config.retry.baseDelay
                ),
                minLength: config.minLength, flightWait: sharing?.flightWait ?? .seconds(5)
            ),
            http: http, scheduler: scheduler,
            cache: ResponseCache(configuration: config.cache.responseCache, size: GithubUser.estimatedBytes),
            searchCache: ResponseCache(configuration: config.cache.responseCache, size: GithubSearchPage.estimatedBytes),
            gate: UpstreamGate(limit: config.upstream.maxConcurrentRequests, onWait: metrics.upstreamWaited),
            replicas: GithubClient.ReplicaStores(cache: sharing?.cache, rateLimits: sharing?.rateLimits, flights: sharing?.flights),
            events: metrics.githubEvents
        )
        self.client = client
        let fairUse = FairUse(
            resolver: ClientAddressResolver(trustedProxies: config.fairUse.trustedProxies),
            origins: OriginPolicy(allowedOrigins: config.fairUse.allowedOrigins),
            limiter: ClientLimiter(settings: config.fairUse.limiterSettings), sharedBuckets: sharing?.buckets,
            sharedSessions: sharing?.sessions, logger: logger
        )
        self.fairUse = fairUse
        server = HTTPServer(
            configuration: config.serverConfiguration,
            router: Service.router(
                client: client, fairUse: fairUse, metrics: metrics, readiness: readiness, sharing: sharing,
                policy: PageSecurityPolicy(githubAPIURL: config.githubAPIURL), composer: config.mux.composer, logger: logger),
            logger: logger
        )
        server.setErrorResponse { status, message in
            JSONResponse.error(status, JSONResponse.serverErrorCode(status), message)
        }
        // A session's pipelines time on its connection's loop; their timers are measured: how
        // late each fires (pipeline_timer_lateness_seconds).
        let schedulers = PipelineSchedulers(injected: injected, record: metrics.timerLateness)
        let cachedResult = metrics.cachedResult
        let context: @Sendable (WebSocketSession) -> PipelineDescriptor.Context = { session in
            PipelineDescriptor.Context(
                client: client, config: config, scheduler: schedulers.scheduler(for: session.loop),
                fairUse: fairUse, cachedResult: cachedResult
            )
        }
        for pipeline in PipelineDescriptor.all {
            let opened = Self.sessionsOpened(pipeline.path)
            server.webSocket(pipeline.path, admit: fairUse.admitSession) { session in
                opened.increment()
                PipelineSession.attach(session, to: pipeline, context: context(session))
            }
        }
        let mux = MuxMetrics()
        let opened = Self.sessionsOpened("/ws/pipelines")
        server.webSocket("/ws/pipelines", admit: fairUse.admitSession) { session in
            opened.increment()
            PipelineMultiplexer.attach(session, context: context(session), settings: config.mux, metrics: mux)
        }
        server.webSocket("/ws/echo") { session in
            session.messages.subscribe(session.outbound)
        }
    }

    /// `websocket_sessions_total{path}`: the sessions each pipeline endpoint has accepted.
    private static func sessionsOpened(_ path: String) -> Metrics.Counter {
        Metrics.Counter(label: "websocket_sessions_total", dimensions: [("path", path)])
    }

    /// Starts serving; returns the bound address.
    func start() throws -> SocketAddress {
        try server.start()
    }

    /// Graceful shutdown of the HTTP side: `/readyz` turns 503 at once; for
    /// `drainGracePeriod` the server goes on accepting and serving as before (a load balancer
    /// polling readiness sees the 503 and stops sending meanwhile); then the listener closes and
    /// the server drains (WebSockets closed with 1001, in-flight responses finished);
    /// `completion` runs when every connection is gone (or the drain timeout passed). A second
    /// call during the grace period ends it at once.
    func drain(completion: @escaping @Sendable () -> Void) {
        let grace = config.drainGracePeriod
        guard readiness.move(from: .serving, to: .gracePeriod), grace > .zero else {
            return closeAndDrain(completion: completion)
        }
        logger.info("not ready: still serving for the drain grace period", metadata: ["seconds": "\(grace.timeInterval)"])
        scheduler.schedule(after: scheduler.now.advanced(by: .nanoseconds(Int(grace / .nanoseconds(1))))) { [self] in
            closeAndDrain(completion: completion)
        }
    }

    /// The listener closes and the server drains.
    private func closeAndDrain(completion: @escaping @Sendable () -> Void) {
        readiness.phase = .draining
        server.shutdown(completion: completion)
    }

    /// `drain`, then the Redis subscriber stops: the HTTP server's and Redis's steps of the
    /// group's shutdown, for tests that start a `Service` without a `ServiceGroup`.
    func shutdown(completion: @escaping @Sendable () -> Void) {
        drain { [sharing] in
            sharing?.stop()
            completion()
        }
    }

    private static func router(
        client: GithubClient, fairUse: FairUse, metrics: ServiceMetrics, readiness: Readiness, sharing: ReplicaSharing?,
        policy: PageSecurityPolicy, composer: ComposerLimits, logger: Logger
    ) -> Router {
        var router = Router()
        router.notFound = { _ in JSONResponse.error(.notFound, "not_found") }
        router.methodNotAllowed = { _ in JSONResponse.error(.methodNotAllowed, "method_not_allowed") }
        // The pages' policy allows images from where this configuration's avatars come from.
        router.get("/", static: BrowserPage.response(BrowserPage.html(policy: policy), policy: policy))
        router.get("/search", static: BrowserPage.response(SearchPage.html(policy: policy), policy: policy))
        router.get("/form", static: BrowserPage.response(FormPage.html(policy: policy), policy: policy))
        router.get("/playground", static: BrowserPage.response(PlaygroundPage.html(policy: policy), policy: policy))
        router.get(PipelineClientScript.path, immediate: { request in PipelineClientScript.response(query: request.query) })
        router.get(PageScript.path, immediate: { request in PageScript.served.response(query: request.query) })
        router.get("/asyncapi.json", immediate: { _ in
            HTTPResponse(status: .ok, contentType: "application/json", text: AsyncAPIDocument.json)
        })
        router.get("/api/pipelines", immediate: { _ in JSONResponse.make(.ok, PipelineDescriptor.all.map(\.catalogEntry)) })
        // The composer's operators, bounds from the configured limits, and presets (written once).
        router.get("/api/operators", static: HTTPResponse(
            status: .ok, contentType: "application/json", text: OperatorDescription.catalogJSON(limits: composer)))
        router.get("/healthz", static: JSONResponse.make(.ok, ["status": "ok"]))
        // With Redis configured, the body says whether it is reachable; unreachable is still
        // ready (the replica carries on with its own state), never an outage. With sentinels,
        // also whether they named a master ("known"/"unknown").
        router.get("/readyz", immediate: { _ in
            let ready = readiness.phase == .serving
            var body = ["status": ready ? "ready" : "draining"]
            if let sharing {
                body["redis"] = sharing.availability
                if let master = sharing.masterStatus { body["redisMaster"] = master }
            }
            return JSONResponse.make(ready ? .ok : .serviceUnavailable, body)
        })
        router.get("/metrics", immediate: { _ in
            HTTPResponse(
                status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
                body: .bytes(metrics.exposition())
            )
        })
        router.get("/openapi.json", immediate: { _ in
            HTTPResponse(status: .ok, contentType: "application/json", text: OpenAPIDocument.json)
        })
        router.get("/api/users/{login}") { request in
            await UserEndpoint.respond(to: request, client: client, quota: fairUse.quota(for: request), logger: logger)
        }
        return router
    }
}

/// Where the service is in its shutdown, as `/readyz` reports it: ready while `serving`, 503
/// from the first `drain` on — through the grace period, in which it still serves, and the drain.
private final class Readiness: Sendable {
    enum Phase: Sendable, Equatable {
        /// Accepting and serving; ready.
        case serving
        /// Shutdown began: still accepting and serving for `drainGracePeriod`, not ready.
        case gracePeriod
        /// The listener is closed and the connections drain.
        case draining
    }

    private let current = Locked(Phase.serving)

    var phase: Phase {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// Moves to `next` if the phase is `expected`; whether it did.
    func move(from expected: Phase, to next: Phase) -> Bool {
        current.withLock { current in
            guard current == expected else { return false }
            current = next
            return true
        }
    }
}

import Dispatch
import Foundation
import GithubProxy
import HTTPServer
import Logging
import Metrics
import StreamCore
import Synchronization

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

    /// - Parameter scheduler: where throttle windows and retry delays run (a test scheduler in
    ///   tests).
    init(
        config: ServiceConfig, logger: Logger,
        scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.global().eraseToAnyScheduler()
    ) {
        self.config = config
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
                client: client, fairUse: fairUse, metrics: metrics, readiness: readiness, sharing: sharing, logger: logger),
            logger: logger
        )
        server.setErrorResponse { status, message in
            JSONResponse.error(status, JSONResponse.serverErrorCode(status), message)
        }
        let context = PipelineDescriptor.Context(client: client, config: config, scheduler: scheduler, fairUse: fairUse)
        for pipeline in PipelineDescriptor.all {
            let opened = Self.sessionsOpened(pipeline.path)
            server.webSocket(pipeline.path, admit: fairUse.admitSession) { session in
                opened.increment()
                PipelineSession.attach(session, to: pipeline, context: context)
            }
        }
        let mux = MuxMetrics()
        let opened = Self.sessionsOpened("/ws/pipelines")
        server.webSocket("/ws/pipelines", admit: fairUse.admitSession) { session in
            opened.increment()
            PipelineMultiplexer.attach(session, context: context, settings: config.mux, metrics: mux)
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

    /// Graceful shutdown of the HTTP side: `/readyz` turns 503, the server drains (WebSockets
    /// closed with 1001, in-flight responses finished); `completion` runs when every connection
    /// is gone (or the drain timeout passed).
    func drain(completion: @escaping @Sendable () -> Void) {
        readiness.draining = true
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
        logger: Logger
    ) -> Router {
        var router = Router()
        router.notFound = { _ in JSONResponse.error(.notFound, "not_found") }
        router.methodNotAllowed = { _ in JSONResponse.error(.methodNotAllowed, "method_not_allowed") }
        router.get("/", static: BrowserPage.response(BrowserPage.html))
        router.get("/search", static: BrowserPage.response(SearchPage.html))
        router.get("/form", static: BrowserPage.response(FormPage.html))
        router.get(PipelineClientScript.path, immediate: { request in PipelineClientScript.response(query: request.query) })
        router.get(PageScript.path, immediate: { request in PageScript.served.response(query: request.query) })
        router.get("/asyncapi.json", immediate: { _ in
            HTTPResponse(status: .ok, contentType: "application/json", text: AsyncAPIDocument.json)
        })
        router.get("/api/pipelines", immediate: { _ in JSONResponse.make(.ok, PipelineDescriptor.all.map(\.catalogEntry)) })
        router.get("/healthz", static: JSONResponse.make(.ok, ["status": "ok"]))
        // With Redis configured, the body says whether it is reachable; unreachable is still
        // ready (the replica carries on with its own state), never an outage.
        router.get("/readyz", immediate: { _ in
            var body = ["status": readiness.draining ? "draining" : "ready"]
            if let sharing { body["redis"] = sharing.availability }
            return JSONResponse.make(readiness.draining ? .serviceUnavailable : .ok, body)
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

/// Whether the service is draining; read by `/readyz`.
private final class Readiness: Sendable {
    private let value = Atomic<Bool>(false)

    var draining: Bool {
        get { value.load(ordering: .relaxed) }
        set { value.store(newValue, ordering: .relaxed) }
    }
}

import Foundation
import GithubProxy
import HTTPServer
import Locking
import Metrics
import Prometheus

/// The Prometheus registry behind `/metrics`, and the metrics of the service's own layers.
///
/// swift-metrics has one process-wide backend, so the first `ServiceMetrics` bootstraps it and
/// every later one (tests start several services) shares that registry.
final class ServiceMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let cacheHits: Metrics.Counter
    private let retries: Metrics.Counter
    /// `github_cache_served_total{source}`, one counter per source, made once: a fresh answer
    /// (most lookups under load) only increments it.
    private let servedFromCache: [CachedAnswer<GithubUser>.Source: Metrics.Counter]
    /// `github_upstream_requests_total{outcome}`, each made at its outcome's first request and
    /// kept here: a request looks its counter up in this dictionary, not in the registry.
    private let upstreamRequests = Locked<[String: Metrics.Counter]>([:])
    private let upstreamDuration: Metrics.Timer
    private let upstreamQueueWait: Metrics.Timer
    private let upstreamQueueLength: Metrics.Gauge
    /// The process's own metrics, which the `metrics` service samples.
    let process: ProcessMetrics

    init() {
        // The registry first: it bootstraps swift-metrics, and a counter made before that would
        // count into the no-op backend.
        registry = ServiceMetrics.shared
        cacheHits = Counter(label: "github_cache_hits_total")
        retries = Counter(label: "github_retries_total")
        servedFromCache = Dictionary(uniqueKeysWithValues: [CachedAnswer<GithubUser>.Source.fresh, .stale].map {
            ($0, Counter(label: "github_cache_served_total", dimensions: [("source", $0.rawValue)]))
        })
        upstreamDuration = Metrics.Timer(label: "github_upstream_request_duration_seconds")
        upstreamQueueWait = Metrics.Timer(label: "github_upstream_queue_wait_seconds")
        upstreamQueueLength = Gauge(label: "github_upstream_queue_length")
        process = ProcessMetrics()
    }

    /// The Prometheus text exposition of every metric.
    func exposition() -> [UInt8] { registry.emitToBuffer() }

    /// Hooks that count what the GitHub client does.
    var githubEvents: GithubClientEvents {
        GithubClientEvents(
            onRequest: { [self] outcome, duration in
                upstreamRequestsCounter(outcome).increment()
                if let duration { upstreamDuration.recordNanoseconds(Int64(duration / .nanoseconds(1))) }
            },
            onRetry: { [retries] _, _ in retries.increment() },
            onCacheHit: { [cacheHits] in cacheHits.increment() },
            // github_cache_hits_total: every answer from the cache (fresh, stale, or confirmed by a
            // 304); github_cache_served_total{source}: the fresh and stale ones by source.
            onServedFromCache: { [cacheHits, servedFromCache] source in
                cacheHits.increment()
                let counter = servedFromCache[source] ?? Counter(label: "github_cache_served_total", dimensions: [("source", source.rawValue)])
                counter.increment()
            },
            onPause: { resource, kind, seconds in
                Counter(label: "github_rate_limit_pauses_total", dimensions: [("resource", resource), ("kind", kind.rawValue)]).increment()
                Gauge(label: "github_rate_limit_paused_until_seconds", dimensions: [("resource", resource)])
                    .record(Date().timeIntervalSince1970 + Double(seconds))
            }
        )
    }

    /// `github_upstream_requests_total{outcome}`: made at the outcome's first request (outside the
    /// lock: the registry takes its own, and gives two threads making it at once the same one).
    private func upstreamRequestsCounter(_ outcome: String) -> Metrics.Counter {
        if let counter = upstreamRequests.withLock({ $0[outcome] }) { return counter }
        let counter = Counter(label: "github_upstream_requests_total", dimensions: [("outcome", outcome)])
        upstreamRequests.withLock { $0[outcome] = counter }
        return counter
    }

    /// Records how late a pipeline's timer fired against its deadline.
    var timerLateness: @Sendable (Duration) -> Void { Self.recorder(Self.timerLatenessLabel) }

    /// Records a `github-user` answer that needed no upstream request: from the throttle's
    /// release of the value (plus the input's way to the throttle) to its `result` frame written.
    var cachedResult: @Sendable (Duration) -> Void { Self.recorder(Self.cachedResultLabel) }

    /// Records each duration it is given into the histogram `label` (made once, here).
    private static func recorder(_ label: String) -> @Sendable (Duration) -> Void {
        let timer = Metrics.Timer(label: label)
        return { timer.recordNanoseconds(Int64($0 / .nanoseconds(1))) }
    }

    static let timerLatenessLabel = "pipeline_timer_lateness_seconds"
    static let cachedResultLabel = "pipeline_cached_result_seconds"

    /// The buckets of the server's own latencies (timers, cached answers, requests): 10 µs to
    /// 1 s, finest around the millisecond that their goals are stated in.
    static let fineBuckets: [Duration] = [
        .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250),
        .microseconds(500), .microseconds(750), .milliseconds(1), .microseconds(1_500), .milliseconds(2),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1),
    ]

    /// Records one upstream request's wait for a slot under `upstream.maxConcurrentRequests`
    /// and the queue length after it.
    var upstreamWaited: @Sendable (Duration, Int) -> Void {
        { [upstreamQueueWait, upstreamQueueLength] wait, queued in
            upstreamQueueWait.recordNanoseconds(Int64(wait / .nanoseconds(1)))
            upstreamQueueLength.record(queued)
        }
    }

    private static let shared: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10),
        ]
        for label in [timerLatenessLabel, cachedResultLabel, Router.durationLabel] {
            factory.durationHistogramBuckets[label] = fineBuckets
        }
        MetricsSystem.bootstrap(factory)
        return registry
    }()
}

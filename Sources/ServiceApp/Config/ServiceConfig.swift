import Foundation
import Logging

/// The service's resolved settings: every row of the contract's table and every key of
/// `config/service.json`, after precedence (flag > environment variable > config file > built-in
/// default) and validation. The property defaults are the built-in defaults.
struct ServiceConfig: Sendable, Equatable {
    /// Address to bind (`--host`, `HOST`).
    var host = "0.0.0.0"
    /// Port to bind; `0` picks a free port (`--port`, `PORT`).
    var port = 8080
    /// Upstream base URL without a trailing slash (`--github-api-url`, `GITHUB_API_URL`).
    var githubAPIURL = ServiceConfig.defaultGithubAPIURL
    /// Sent upstream as `Authorization: Bearer …`; read from `GITHUB_TOKEN` only, never logged.
    var githubToken: GitHubToken?
    /// Throttle window of the keystroke pipeline (`--throttle-ms`, `THROTTLE_MS`).
    var throttle: Duration = .milliseconds(500)
    /// Queries shorter than this are answered `too_short` without an upstream call.
    var minLength = 3
    /// The swift-log level of every logger.
    var logLevel: Logger.Level = .info
    /// How long after SIGTERM the service goes on accepting and serving while `/readyz` answers
    /// 503, before it closes its listener and drains (0: at once). Behind a load balancer that
    /// polls readiness (Kubernetes), longer than it takes to notice and stop sending.
    var drainGracePeriod: Duration = .zero
    /// How long a shutdown waits for in-flight responses before exiting.
    var drainTimeout: Duration = .seconds(10)
    /// How long after its deadline a timer on a connection's loop (a session's throttle, say)
    /// may fire, so that timers due close together, or close to the next keystroke read on that
    /// loop, share one wake-up of its thread (under typing load, nearly a third of the loops'
    /// wake-ups were a timer's alone).
    var timerSlack: Duration = .microseconds(500)
    /// Accepted connections beyond this are refused. Each is a descriptor: the service raises
    /// its open-file limit to the hard limit at start and warns when this does not fit.
    var maxConnections = 16_384
    /// HTTP/1.1 request limits and timeouts.
    var http = HTTPLimits()
    /// WebSocket limits, keep-alive and compression.
    var webSocket = WebSocketLimits()
    /// Timeouts of upstream (GitHub) requests.
    var upstream = UpstreamTimeouts()
    /// Retries of transient upstream failures.
    var retry = RetryPolicy()
    /// The lookup cache shared by `/ws` and `/api/users/{login}`.
    var cache = CacheSettings()
    /// The `/ws/search` pipeline.
    var search = SearchPipeline.Settings()
    /// `/ws/pipelines`: subscriptions per connection, events waiting for demand.
    var mux = MuxStateMachine.Settings()
    /// Client identity, origins and per-client limits.
    var fairUse = FairUseSettings()
    /// The Redis shared by replicas, if any.
    var redis = RedisSettings()
    /// The config file the settings were read from; `nil` when the default file is absent.
    var configFile: String?

    /// `https://api.github.com`.
    static let defaultGithubAPIURL: URL = {
        guard let url = URL(string: "https://api.github.com") else { preconditionFailure("constant URL") }
        return url
    }()
}

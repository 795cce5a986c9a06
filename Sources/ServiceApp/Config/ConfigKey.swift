import Configuration

/// Every key of the config file, spelled as in the file (`http.maxHeaderBytes` is the key
/// `maxHeaderBytes` inside the `"http"` object), with the flag and environment variable that can
/// override it, if any.
///
/// swift-configuration's providers derive a key's flag and variable from its name
/// (`githubApiUrl`: `--github-api-url`, `GITHUB_API_URL`); `flag` and `environmentVariable` say
/// which keys the service lets them override, and how error messages name them (a test checks
/// that the names agree).
enum ConfigKey: String, CaseIterable, Sendable {
    case host, port, githubApiUrl, throttleMs, minLength, logLevel, drainGracePeriodSeconds, drainTimeoutSeconds, maxConnections
    case timerSlackMicroseconds
    case trustedProxies, allowedOrigins
    case redisUrl = "redis.url"
    case redisPoolSize = "redis.poolSize"
    case redisTimeoutMs = "redis.timeoutMs"
    case redisFlightWaitMs = "redis.flightWaitMs"
    case redisPassword = "redis.password"
    case redisSentinelPassword = "redis.sentinelPassword"
    case redisSentinels = "redis.sentinels"
    case redisMasterName = "redis.masterName"
    case redisPingIntervalMs = "redis.pingIntervalMs"
    case limitsSessionsPerClient = "limits.sessionsPerClient"
    case limitsLookupsPerClientPerMinute = "limits.lookupsPerClientPerMinute"
    case limitsMaxTrackedClients = "limits.maxTrackedClients"
    case httpMaxHeaderBytes = "http.maxHeaderBytes"
    case httpMaxBodyBytes = "http.maxBodyBytes"
    case httpHeaderReadTimeoutSeconds = "http.headerReadTimeoutSeconds"
    case httpKeepAliveIdleTimeoutSeconds = "http.keepAliveIdleTimeoutSeconds"
    case webSocketMaxMessageBytes = "webSocket.maxMessageBytes"
    case webSocketPingIntervalSeconds = "webSocket.pingIntervalSeconds"
    case webSocketIdleTimeoutSeconds = "webSocket.idleTimeoutSeconds"
    case webSocketOutboundLimitBytes = "webSocket.outboundLimitBytes"
    case webSocketCompression = "webSocket.compression"
    case upstreamConnectTimeoutSeconds = "upstream.connectTimeoutSeconds"
    case upstreamRequestTimeoutSeconds = "upstream.requestTimeoutSeconds"
    case upstreamMaxConnections = "upstream.maxConnections"
    case upstreamMaxConcurrentRequests = "upstream.maxConcurrentRequests"
    case retryMaxRetries = "retry.maxRetries"
    case retryBaseDelayMs = "retry.baseDelayMs"
    case cacheCapacity = "cache.capacity"
    case cacheTtlSeconds = "cache.ttlSeconds"
    case cacheMaxBytes = "cache.maxBytes"
    case cacheNotFoundTtlSeconds = "cache.notFoundTtlSeconds"
    case cacheStaleIfErrorSeconds = "cache.staleIfErrorSeconds"
    case searchDebounceMs = "search.debounceMs"
    case searchRefreshDelayMs = "search.refreshDelayMs"
    case searchPerPage = "search.perPage"
    case muxMaxSubscriptions = "mux.maxSubscriptions"
    case muxMaxPendingEvents = "mux.maxPendingEvents"
    case composerMaxStages = "composer.maxStages"
    case composerMaxMs = "composer.maxMs"
    case composerMaxCount = "composer.maxCount"
    case composerMaxStringLength = "composer.maxStringLength"
    case composerMaxLookups = "composer.maxLookups"
    case composerMaxPublishers = "composer.maxPublishers"

    /// The key as swift-configuration's providers look it up: `["http", "maxHeaderBytes"]`.
    var absoluteKey: AbsoluteConfigKey { AbsoluteConfigKey(rawValue.split(separator: ".").map(String.init)) }

    /// The objects that group keys in the file.
    static let groups: Set<String> = ["http", "webSocket", "upstream", "retry", "cache", "search", "limits", "redis", "mux", "composer"]

    /// The command-line flag that overrides this key, e.g. `--port`.
    var flag: String? {
        switch self {
        case .host: "--host"
        case .port: "--port"
        case .githubApiUrl: "--github-api-url"
        case .throttleMs: "--throttle-ms"
        case .redisUrl: "--redis-url"
        default: nil
        }
    }

    /// The environment variable that overrides this key, e.g. `PORT`.
    var environmentVariable: String? {
        switch self {
        case .host: "HOST"
        case .port: "PORT"
        case .githubApiUrl: "GITHUB_API_URL"
        case .throttleMs: "THROTTLE_MS"
        case .trustedProxies: "TRUSTED_PROXIES"
        case .allowedOrigins: "ALLOWED_ORIGINS"
        case .redisUrl: "REDIS_URL"
        case .redisPassword: "REDIS_PASSWORD"
        case .redisSentinelPassword: "REDIS_SENTINEL_PASSWORD"
        case .redisSentinels: "REDIS_SENTINELS"
        case .redisMasterName: "REDIS_MASTER_NAME"
        case .drainGracePeriodSeconds: "DRAIN_GRACE_PERIOD_SECONDS"
        default: nil
        }
    }

    /// Whether a value may hold a secret (the Redis URL's password, the Redis and Sentinel
    /// passwords): an error about it does not repeat the value, and the providers mark it secret.
    var isSecret: Bool { [.redisUrl, .redisPassword, .redisSentinelPassword].contains(self) }
}

import PipelineWire
import GithubProxy
import SharedState

extension ConfigResolver {
    /// The `"http"` group.
    static func httpLimits(
        _ reader: SettingReader, _ defaults: ServiceConfig.HTTPLimits
    ) throws(ConfigError) -> ServiceConfig.HTTPLimits {
        ServiceConfig.HTTPLimits(
            maxHeaderBytes: try reader.integer(.httpMaxHeaderBytes, default: defaults.maxHeaderBytes, in: 1024...1_048_576),
            maxBodyBytes: try reader.integer(.httpMaxBodyBytes, default: defaults.maxBodyBytes, in: 0...67_108_864),
            headerReadTimeout: try reader.seconds(
                .httpHeaderReadTimeoutSeconds, default: defaults.headerReadTimeout, in: 0.001...3600),
            keepAliveIdleTimeout: try reader.seconds(
                .httpKeepAliveIdleTimeoutSeconds, default: defaults.keepAliveIdleTimeout, in: 0.001...3600))
    }

    /// The `"webSocket"` group.
    static func webSocketLimits(
        _ reader: SettingReader, _ defaults: ServiceConfig.WebSocketLimits
    ) throws(ConfigError) -> ServiceConfig.WebSocketLimits {
        ServiceConfig.WebSocketLimits(
            maxMessageBytes: try reader.integer(
                .webSocketMaxMessageBytes, default: defaults.maxMessageBytes, in: 125...268_435_456),
            pingInterval: try reader.seconds(.webSocketPingIntervalSeconds, default: defaults.pingInterval, in: 0...3600),
            idleTimeout: try reader.seconds(.webSocketIdleTimeoutSeconds, default: defaults.idleTimeout, in: 0...86_400),
            outboundLimitBytes: try reader.integer(
                .webSocketOutboundLimitBytes, default: defaults.outboundLimitBytes, in: 65_536...1_073_741_824),
            compression: try reader.boolean(.webSocketCompression, default: defaults.compression))
    }

    /// The `"upstream"` group.
    static func upstreamTimeouts(
        _ reader: SettingReader, _ defaults: ServiceConfig.UpstreamTimeouts
    ) throws(ConfigError) -> ServiceConfig.UpstreamTimeouts {
        ServiceConfig.UpstreamTimeouts(
            connect: try reader.seconds(.upstreamConnectTimeoutSeconds, default: defaults.connect, in: 0.001...300),
            request: try reader.seconds(.upstreamRequestTimeoutSeconds, default: defaults.request, in: 0.001...600),
            maxConnections: try reader.integer(.upstreamMaxConnections, default: defaults.maxConnections, in: 1...10_000),
            maxConcurrentRequests: try reader.integer(
                .upstreamMaxConcurrentRequests, default: defaults.maxConcurrentRequests, in: 1...UpstreamGate.maxLimit))
    }

    /// The `"retry"` group; at least 2 retries, as the contract requires.
    static func retryPolicy(
        _ reader: SettingReader, _ defaults: ServiceConfig.RetryPolicy
    ) throws(ConfigError) -> ServiceConfig.RetryPolicy {
        ServiceConfig.RetryPolicy(
            maxRetries: try reader.integer(.retryMaxRetries, default: defaults.maxRetries, in: 2...10),
            baseDelay: try reader.milliseconds(.retryBaseDelayMs, default: defaults.baseDelay, in: 0...60_000))
    }

    /// The `"search"` group: the `/ws/search` pipeline's timings and page size.
    static func searchSettings(
        _ reader: SettingReader, _ defaults: SearchPipeline.Settings
    ) throws(ConfigError) -> SearchPipeline.Settings {
        SearchPipeline.Settings(
            debounce: try reader.milliseconds(.searchDebounceMs, default: defaults.debounce, in: 0...60_000),
            refreshDelay: try reader.milliseconds(.searchRefreshDelayMs, default: defaults.refreshDelay, in: 0...60_000),
            perPage: try reader.integer(.searchPerPage, default: defaults.perPage, in: 1...100))
    }

    /// The `"mux"` group: the limits of `/ws/pipelines`.
    static func muxSettings(
        _ reader: SettingReader, _ defaults: MuxStateMachine.Settings
    ) throws(ConfigError) -> MuxStateMachine.Settings {
        var settings = defaults
        settings.maxSubscriptions = try reader.integer(.muxMaxSubscriptions, default: defaults.maxSubscriptions, in: 1...10_000)
        settings.maxPendingEvents = try reader.integer(.muxMaxPendingEvents, default: defaults.maxPendingEvents, in: 1...1_000_000)
        settings.composer = try composerLimits(reader, defaults.composer)
        return settings
    }

    /// The `"composer"` group: the limits of the pipelines clients compose on `/ws/pipelines`.
    static func composerLimits(_ reader: SettingReader, _ defaults: ComposerLimits) throws(ConfigError) -> ComposerLimits {
        var limits = defaults
        limits.maxStages = try reader.integer(.composerMaxStages, default: defaults.maxStages, in: 1...64)
        limits.maxMs = try reader.integer(.composerMaxMs, default: defaults.maxMs, in: 0...600_000)
        limits.maxCount = try reader.integer(.composerMaxCount, default: defaults.maxCount, in: 1...10_000)
        limits.maxStringLength = try reader.integer(.composerMaxStringLength, default: defaults.maxStringLength, in: 1...65_536)
        limits.maxLookups = try reader.integer(.composerMaxLookups, default: defaults.maxLookups, in: 0...8)
        limits.maxPublishers = try reader.integer(.composerMaxPublishers, default: defaults.maxPublishers, in: 1...64)
        return limits
    }

    /// `trustedProxies`, `allowedOrigins` and the `"limits"` group.
    static func fairUseSettings(
        _ reader: SettingReader, _ defaults: ServiceConfig.FairUseSettings
    ) throws(ConfigError) -> ServiceConfig.FairUseSettings {
        ServiceConfig.FairUseSettings(
            trustedProxies: try reader.list(
                .trustedProxies, default: defaults.trustedProxies,
                reason: "must be a list of IP addresses or CIDR ranges (10.0.0.0/8, fd00::/8)", IPAddressRange.init),
            allowedOrigins: try reader.list(
                .allowedOrigins, default: defaults.allowedOrigins,
                reason: "must be a list of origins (https://example.com) or \"*\"") { origin in
                    origin == "*" || origin.lowercased().hasPrefix("http://") || origin.lowercased().hasPrefix("https://") ? origin : nil
                },
            sessionsPerClient: try reader.integer(.limitsSessionsPerClient, default: defaults.sessionsPerClient, in: 1...1_000_000),
            lookupsPerClientPerMinute: try reader.integer(
                .limitsLookupsPerClientPerMinute, default: defaults.lookupsPerClientPerMinute, in: 1...1_000_000),
            maxTrackedClients: try reader.integer(.limitsMaxTrackedClients, default: defaults.maxTrackedClients, in: 100...10_000_000))
    }

    /// The `"redis"` group: `redis.url` (`--redis-url`, `REDIS_URL`) or `redis.sentinels` and
    /// `redis.masterName` (`REDIS_SENTINELS`, `REDIS_MASTER_NAME`), the passwords
    /// (`redis.password`/`REDIS_PASSWORD`, `redis.sentinelPassword`/`REDIS_SENTINEL_PASSWORD`), the
    /// pool and timeout, and how long a lookup waits for another replica's request. A password
    /// both in the URL and in `redis.password` is an error (which one counts would be a guess);
    /// no message repeats a password.
    static func redisSettings(_ reader: SettingReader) throws(ConfigError) -> ServiceConfig.RedisSettings {
        let poolSize = try reader.integer(.redisPoolSize, default: 4, in: 1...256)
        let timeout = try reader.integer(.redisTimeoutMs, default: 250, in: 1...60_000)
        let flightWait = try reader.integer(.redisFlightWaitMs, default: 5_000, in: 1...120_000)
        let pingInterval = Duration.milliseconds(try reader.integer(.redisPingIntervalMs, default: 5_000, in: 100...600_000))
        let password = try secret(.redisPassword, reader)
        let sentinelPassword = try secret(.redisSentinelPassword, reader)
        // Value is optional (no URL, or "": no Redis); an unreadable URL is an error, not "none".
        let client = try reader.string(.redisUrl, default: RedisClient.Configuration?.none,
                                       reason: "must be redis://[[user]:password@]host[:port][/database], or empty for none") { text -> RedisClient.Configuration?? in
            if text.trimmingCharacters(in: .whitespaces).isEmpty { return .some(nil) }
            guard let configuration = RedisClient.Configuration(
                url: text, password: password, poolSize: poolSize, timeout: .milliseconds(timeout)) else {
                return nil
            }
            return .some(configuration)
        }
        if password != nil, let client, client.password != password, let source = reader.source(of: .redisPassword) {
            throw .invalidValue(
                value: "(not shown: it is a password)", source: source,
                reason: "redis.url has a password of its own; give the password in one place only")
        }
        let sentinels = try reader.list(
            .redisSentinels, default: [RedisAddress](), reason: "must be a list of host:port (sentinel-0:26379,sentinel-1:26379)",
            RedisAddress.init)
        let masterName = try reader.string(.redisMasterName, default: "mymaster", reason: "must be a name without spaces") { name in
            name.isEmpty || name.contains(" ") ? nil : name
        }
        var settings = ServiceConfig.RedisSettings(
            client: client, flightWait: .milliseconds(flightWait), sentinelPassword: sentinelPassword)
        settings.client?.pingInterval = pingInterval
        if !sentinels.isEmpty {
            // The master's address comes from the sentinels: a URL as well would be a second answer.
            if client != nil, let source = reader.source(of: .redisUrl) {
                throw .invalidValue(
                    value: "(not shown: it may hold a password)", source: source,
                    reason: "redis.sentinels is set, and the master's address comes from the sentinels; give redis.url or redis.sentinels (with redis.password), not both")
            }
            var configuration = RedisClient.Configuration(
                host: "", port: 0, password: password, poolSize: poolSize, timeout: .milliseconds(timeout))
            configuration.pingInterval = pingInterval
            configuration.sentinels = RedisSentinels(
                addresses: sentinels, masterName: masterName, password: sentinelPassword, pingInterval: pingInterval)
            settings.client = configuration
        }
        return settings
    }

    /// A password setting: nil when absent or empty; any other text as given.
    private static func secret(_ key: ConfigKey, _ reader: SettingReader) throws(ConfigError) -> String? {
        try reader.string(key, default: String?.none, reason: "must be text") { text -> String?? in
            .some(text.isEmpty ? nil : text)
        }
    }

    /// The `"cache"` group.
    static func cacheSettings(
        _ reader: SettingReader, _ defaults: ServiceConfig.CacheSettings
    ) throws(ConfigError) -> ServiceConfig.CacheSettings {
        ServiceConfig.CacheSettings(
            capacity: try reader.integer(.cacheCapacity, default: defaults.capacity, in: 0...1_000_000),
            ttl: try reader.seconds(.cacheTtlSeconds, default: defaults.ttl, in: 0...86_400),
            maxBytes: try reader.integer(.cacheMaxBytes, default: defaults.maxBytes, in: 1_024...(1 << 40)),
            notFoundTtl: try reader.seconds(.cacheNotFoundTtlSeconds, default: defaults.notFoundTtl, in: 0...86_400),
            staleIfError: try reader.seconds(.cacheStaleIfErrorSeconds, default: defaults.staleIfError, in: 0...2_592_000))
    }
}

import Logging

extension ServiceConfig: CustomStringConvertible {
    /// Every setting as flat logger metadata, keyed as in the config file (`http.maxHeaderBytes`).
    /// The token appears only as `token: set|unset`, the sentinels' password as
    /// `redis.sentinelPassword: set|unset`, a Redis password as `***` in `redis.url`.
    var logMetadata: Logger.Metadata {
        let seconds: (Duration) -> Logger.MetadataValue = { "\(Self.number($0.timeInterval))" }
        let milliseconds: (Duration) -> Logger.MetadataValue = { "\($0.wholeMilliseconds)" }
        return [
            "host": "\(host)",
            "port": "\(port)",
            "githubApiUrl": "\(githubAPIURL.absoluteString)",
            "token": githubToken == nil ? "unset" : "set",
            "throttleMs": milliseconds(throttle),
            "minLength": "\(minLength)",
            "logLevel": "\(logLevel.rawValue)",
            "drainGracePeriodSeconds": seconds(drainGracePeriod),
            "drainTimeoutSeconds": seconds(drainTimeout),
            "maxConnections": "\(maxConnections)",
            "timerSlackMicroseconds": "\(Int(timerSlack / .microseconds(1)))",
            "configFile": "\(configFile ?? "none")",
            "http.maxHeaderBytes": "\(http.maxHeaderBytes)",
            "http.maxBodyBytes": "\(http.maxBodyBytes)",
            "http.headerReadTimeoutSeconds": seconds(http.headerReadTimeout),
            "http.keepAliveIdleTimeoutSeconds": seconds(http.keepAliveIdleTimeout),
            "webSocket.maxMessageBytes": "\(webSocket.maxMessageBytes)",
            "webSocket.pingIntervalSeconds": seconds(webSocket.pingInterval),
            "webSocket.idleTimeoutSeconds": seconds(webSocket.idleTimeout),
            "webSocket.outboundLimitBytes": "\(webSocket.outboundLimitBytes)",
            "webSocket.compression": "\(webSocket.compression)",
            "upstream.connectTimeoutSeconds": seconds(upstream.connect),
            "upstream.requestTimeoutSeconds": seconds(upstream.request),
            "upstream.maxConnections": "\(upstream.maxConnections)",
            "upstream.maxConcurrentRequests": "\(upstream.maxConcurrentRequests)",
            "retry.maxRetries": "\(retry.maxRetries)",
            "retry.baseDelayMs": milliseconds(retry.baseDelay),
            "cache.capacity": "\(cache.capacity)",
            "cache.ttlSeconds": seconds(cache.ttl),
            "cache.maxBytes": "\(cache.maxBytes)",
            "cache.notFoundTtlSeconds": seconds(cache.notFoundTtl),
            "cache.staleIfErrorSeconds": seconds(cache.staleIfError),
            "search.debounceMs": milliseconds(search.debounce),
            "search.refreshDelayMs": milliseconds(search.refreshDelay),
            "search.perPage": "\(search.perPage)",
            "mux.maxSubscriptions": "\(mux.maxSubscriptions)",
            "mux.maxPendingEvents": "\(mux.maxPendingEvents)",
            "composer.maxStages": "\(mux.composer.maxStages)",
            "composer.maxMs": "\(mux.composer.maxMs)",
            "composer.maxCount": "\(mux.composer.maxCount)",
            "composer.maxStringLength": "\(mux.composer.maxStringLength)",
            "composer.maxLookups": "\(mux.composer.maxLookups)",
            "composer.maxPublishers": "\(mux.composer.maxPublishers)",
            "trustedProxies": "\(fairUse.trustedProxies.map(\.description).joined(separator: ","))",
            "allowedOrigins": "\(fairUse.allowedOrigins.joined(separator: ","))",
            "limits.sessionsPerClient": "\(fairUse.sessionsPerClient)",
            "limits.lookupsPerClientPerMinute": "\(fairUse.lookupsPerClientPerMinute)",
            "limits.maxTrackedClients": "\(fairUse.maxTrackedClients)",
            "redis.url": "\(redis.client.map(\.description) ?? "none")",
            "redis.sentinelPassword": redis.sentinelPassword == nil ? "unset" : "set",
            "redis.sentinels": "\(redis.client?.sentinels?.addresses.map(\.description).joined(separator: ",") ?? "")",
            "redis.masterName": "\(redis.client?.sentinels?.masterName ?? "")",
            "redis.pingIntervalMs": "\(redis.client.map { $0.pingInterval.wholeMilliseconds } ?? 5_000)",
        ]
    }

    /// `key=value` pairs of `logMetadata`, sorted by key; the token shows as `token=set|unset`.
    var description: String {
        logMetadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// `10` for whole numbers, `0.25` otherwise.
    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

import GithubProxy

extension ServiceConfig {
    /// The upstream answers cache, a private HTTP cache (`"cache"` in the config file).
    struct CacheSettings: Sendable, Equatable {
        /// Entries kept; `0` disables the cache.
        var capacity = 50_000
        /// The longest an answer is served without asking GitHub, whatever its `max-age` says;
        /// `.zero` revalidates every lookup (copies are still kept for `304`s and stale-if-error).
        var ttl: Duration = .seconds(60)
        /// Bytes the entries may take (estimated), besides `capacity`.
        var maxBytes = 16 << 20
        /// How long a `404` is remembered (the same missing login is not asked again within it).
        var notFoundTtl: Duration = .seconds(60)
        /// How old a copy may be and still be served (marked stale) when GitHub fails.
        var staleIfError: Duration = .seconds(86_400)
    }
}

extension ServiceConfig.CacheSettings {
    /// The settings as the GitHub client's cache takes them.
    var responseCache: ResponseCacheConfiguration {
        .init(
            capacity: capacity, maxBytes: maxBytes, maxFreshness: ttl, notFoundTTL: notFoundTtl, staleIfError: staleIfError
        )
    }
}

extension ServiceConfig {
    /// The lookup cache (`"cache"` in the config file).
    struct CacheSettings: Sendable, Equatable {
        /// Entries kept; `0` disables the cache.
        var capacity = 1000
        /// How long an entry is served; `.zero` disables the cache.
        var ttl: Duration = .seconds(60)
    }
}

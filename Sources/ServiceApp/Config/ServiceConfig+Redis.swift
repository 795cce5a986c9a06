import SharedState

extension ServiceConfig {
    /// The Redis the replicas share (`"redis"` in the config file); no URL: this replica's state only.
    struct RedisSettings: Sendable, Equatable, CustomReflectable {
        /// Where Redis is, with the password of `redis.url` or of `redis.password`
        /// (`REDIS_PASSWORD`) if any.
        var client: RedisClient.Configuration?
        /// How long a lookup waits for another replica's request for the same user
        /// (`redis.flightWaitMs`) before it fetches on its own.
        var flightWait: Duration = .seconds(5)
        /// Sent with `AUTH` to the sentinels (`redis.sentinelPassword`, `REDIS_SENTINEL_PASSWORD`);
        /// nil: none. Never printed.
        var sentinelPassword: String?

        /// `dump` and reflection show whether a sentinel password is set, never the password.
        var customMirror: Mirror {
            Mirror(self, children: [
                "client": client as Any, "flightWait": flightWait,
                "sentinelPassword": sentinelPassword == nil ? "unset" : "set",
            ], displayStyle: .struct)
        }
    }
}

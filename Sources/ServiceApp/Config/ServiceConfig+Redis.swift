import SharedState

extension ServiceConfig {
    /// The Redis the replicas share (`"redis"` in the config file); no URL: this replica's state only.
    struct RedisSettings: Sendable, Equatable {
        var client: RedisClient.Configuration?
        /// How long a lookup waits for another replica's request for the same user
        /// (`redis.flightWaitMs`) before it fetches on its own.
        var flightWait: Duration = .seconds(5)
    }
}

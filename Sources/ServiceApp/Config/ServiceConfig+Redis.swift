import GithubProxy

extension ServiceConfig {
    /// The Redis the replicas share (`"redis"` in the config file); no URL: this replica's state only.
    struct RedisSettings: Sendable, Equatable {
        var client: RedisClient.Configuration?
    }
}

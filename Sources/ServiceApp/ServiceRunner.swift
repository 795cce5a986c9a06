import Logging

/// Runs the service with its resolved configuration.
///
/// Placeholder until the HTTP server, the GitHub client and the pipelines are wired in: it logs
/// the settings (the token only as `token: set|unset`) and returns.
enum ServiceRunner {
    /// Starts the service and returns when it has shut down.
    static func run(config: ServiceConfig, logger: Logger = Logger(label: "ServiceApp")) async throws {
        logger.info("configuration resolved", metadata: config.logMetadata)
    }
}

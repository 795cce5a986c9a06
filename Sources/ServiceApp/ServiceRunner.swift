import Logging
import ServiceLifecycle

/// Runs the service with its resolved configuration as a `ServiceGroup` until SIGTERM or SIGINT,
/// then drains (`Service.serviceGroupConfiguration`).
enum ServiceRunner {
    /// Starts the service (the HTTP server logs `listening on http://HOST:PORT`) and returns
    /// after a graceful shutdown.
    static func run(config: ServiceConfig, logger: Logger = Logger(label: "ServiceApp")) async throws {
        logConfiguration(config, logger: logger)
        OpenFileLimit.prepare(maxConnections: config.maxConnections, logger: logger)
        let service = Service(config: config, logger: logger)
        try await ServiceGroup(configuration: service.serviceGroupConfiguration(logger: logger)).run()
        logger.info("stopped")
    }

    /// Logs the resolved settings in one line; the token appears only as `token=set|unset`.
    static func logConfiguration(_ config: ServiceConfig, logger: Logger) {
        logger.info("configuration resolved", metadata: config.logMetadata)
    }
}

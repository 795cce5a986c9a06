import Logging
import ServiceLifecycle
import UnixSignals

extension Service {
    /// The service's parts as the services of one `ServiceGroup`, in start order: process
    /// metrics, the curl driver, the Redis subscriber (when `redis.url` is set) and the HTTP
    /// server. SIGTERM or SIGINT shut them down gracefully in reverse order: the HTTP server
    /// drains first, then the Redis subscriber stops listening for other replicas, the curl
    /// driver aborts what is left and stops its thread, and metrics stop sampling.
    ///
    /// - Parameter signals: the signals that start the graceful shutdown (none in tests that run
    ///   a group inside the test process and call `triggerGracefulShutdown`).
    func serviceGroupConfiguration(
        logger: Logger, signals: [UnixSignal] = [.sigterm, .sigint]
    ) -> ServiceGroupConfiguration {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: ProcessMetricsService(metrics: metrics.process, logger: logger), serviceName: "metrics"),
            .init(service: ClosureService { [http] in
                try? await gracefulShutdown()
                http.shutdown()
                logger.debug("curl driver stopped")
            }, serviceName: "curl-driver"),
        ]
        if let sharing {
            services.append(.init(service: ClosureService {
                try? await gracefulShutdown()
                sharing.stop()
                logger.debug("redis subscriber stopped")
            }, serviceName: "redis-subscriber"))
        }
        services.append(.init(service: HTTPServerService(service: self, logger: logger), serviceName: "http-server"))
        var configuration = ServiceGroupConfiguration(services: services, logger: logger)
        configuration.gracefulShutdownSignals = signals
        return configuration
    }
}

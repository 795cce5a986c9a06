import Logging
import ServiceLifecycle

/// The HTTP server as a service of the group: binds, logs `listening on http://HOST:PORT`, serves
/// until the group shuts down, then drains — `/readyz` turns 503, the server serves on for
/// `drainGracePeriodSeconds`, then closes its listener: WebSockets close with 1001, in-flight
/// responses finish, within `drainTimeoutSeconds`.
struct HTTPServerService: ServiceLifecycle.Service {
    let service: Service
    let logger: Logger

    func run() async throws {
        let address = try service.start()
        let host = service.config.host
        // The contract promises this line whatever the configured level: it is how `--port 0`
        // tells its port.
        var startup = logger
        startup.logLevel = min(logger.logLevel, .info)
        startup.info("listening on http://\(host.contains(":") ? "[\(host)]" : host):\(address.port)")
        // Returns on SIGTERM/SIGINT (graceful shutdown) or when the group is cancelled because
        // another service failed: either way the server drains.
        try? await gracefulShutdown()
        logger.info("draining", metadata: [
            "grace_period_seconds": "\(service.config.drainGracePeriod.timeInterval)",
            "timeout_seconds": "\(service.config.drainTimeout.timeInterval)",
        ])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            service.drain { continuation.resume() }
        }
        logger.debug("drained")
    }
}

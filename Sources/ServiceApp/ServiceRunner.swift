import Dispatch
import Foundation
import Logging
import Synchronization

/// Runs the service with its resolved configuration until SIGTERM or SIGINT, then drains.
enum ServiceRunner {
    /// Starts the service, logs `listening on http://HOST:PORT`, and returns after a graceful
    /// shutdown.
    static func run(config: ServiceConfig, logger: Logger = Logger(label: "ServiceApp")) async throws {
        logConfiguration(config, logger: logger)
        let service = Service(config: config, logger: logger)
        let address = try service.start()
        // The contract promises this line whatever the configured level: it is how `--port 0`
        // tells its port.
        var startup = logger
        startup.logLevel = min(logger.logLevel, .info)
        startup.info("listening on http://\(config.host.contains(":") ? "[\(config.host)]" : config.host):\(address.port)")
        await waitForTermination(logger: logger)
        logger.info("draining", metadata: ["timeout_seconds": "\(config.drainTimeout.timeInterval)"])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            service.shutdown { continuation.resume() }
        }
        logger.info("stopped")
    }

    /// Logs the resolved settings in one line; the token appears only as `token=set|unset`.
    static func logConfiguration(_ config: ServiceConfig, logger: Logger) {
        logger.info("configuration resolved", metadata: config.logMetadata)
    }

    /// Returns on the first SIGTERM or SIGINT.
    private static func waitForTermination(logger: Logger) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Once()
            for signalNumber in [SIGTERM, SIGINT] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler {
                    guard once.claim() else { return }
                    logger.info("received signal \(signalNumber)")
                    continuation.resume()
                }
                source.resume()
                signalSources.append(source)
            }
        }
    }

    /// The signal sources, kept alive for the life of the process.
    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []
}

/// True for the first caller only.
private final class Once: Sendable {
    private let claimed = Atomic<Bool>(false)

    func claim() -> Bool { claimed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged }
}

import Logging
import ServiceLifecycle

/// Metrics as a service of the group: samples `ProcessMetrics` at start and every `interval`
/// until the group shuts down (it is the last service to stop, so the drain is sampled too).
struct ProcessMetricsService: ServiceLifecycle.Service {
    let metrics: ProcessMetrics
    let logger: Logger
    var interval: Duration = .seconds(5)

    func run() async throws {
        var counted = 0.0
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            counted = metrics.sample(countedCPUSeconds: counted)
            try? await cancelWhenGracefulShutdown { [interval] in try await Task.sleep(for: interval) }
        }
        logger.debug("metrics stopped")
    }
}

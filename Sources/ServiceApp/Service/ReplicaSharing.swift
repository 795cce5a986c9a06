import Foundation
import Logging
import Metrics
import SharedState

/// What replicas share through one Redis when `redis.url` is set: the user cache, GitHub's rate
/// limits, in-flight lookups and fair use's per-client lookup allowances and session counts, all on one client (`redis_commands_total` counts its round
/// trips; failures are counted and logged by `RedisFailureReport`).
final class ReplicaSharing: Sendable {
    let client: RedisClient
    let cache: RedisResponseStore
    let rateLimits: RedisRateLimitStore
    let flights: RedisFlights
    let buckets: RedisTokenBuckets
    let sessions: RedisSessionCounts
    let flightWait: Duration

    init(settings: ServiceConfig.RedisSettings, configuration: RedisClient.Configuration, logger: Logger) {
        let commands = Counter(label: "redis_commands_total")
        let failures = RedisFailureReport(logger: logger)
        client = RedisClient(
            configuration: configuration, onCommand: { commands.increment() },
            onFailure: failures.report,
            onMasterChange: { master in
                if let master {
                    logger.notice("Redis master named by the sentinels", metadata: ["master": "\(master)"])
                } else {
                    logger.warning("no Redis master known: carrying on with this replica's own state")
                }
            },
            onSentinelFailure: failures.reportSentinel
        )
        cache = RedisResponseStore(client: client)
        rateLimits = RedisRateLimitStore(client: client)
        flights = RedisFlights(client: client)
        buckets = RedisTokenBuckets(client: client)
        sessions = RedisSessionCounts(client: client)
        flightWait = settings.flightWait
    }

    /// `/readyz`'s word on Redis: available when its last command reached it and the replica
    /// hears other replicas' landings.
    var availability: String { client.isAvailable && flights.isSubscribed ? "available" : "unavailable" }

    /// With sentinels, whether they named a master: `known`, or `unknown` (degraded: this
    /// replica's own state serves); nil without sentinels.
    var masterStatus: String? {
        guard client.configuration.sentinels != nil else { return nil }
        return client.master == nil ? "unknown" : "known"
    }

    /// Stops listening for other replicas' landings and renewing this replica's liveness (at
    /// shutdown, once its sessions are closed).
    func stop() {
        flights.stop()
        sessions.stop()
        client.stopFollowingMaster()
    }
}

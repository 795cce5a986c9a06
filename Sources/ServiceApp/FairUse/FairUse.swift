import Foundation
import GithubProxy
import HTTPServer
import Logging
import Metrics
import SharedState

/// The "Fair use" rules of the contract: who a client is (`ClientAddressResolver`), which origins
/// may open WebSockets (`OriginPolicy`), and how many sessions and upstream lookups each client
/// may have (`ClientLimiter`). Refusals are counted in `/metrics` and logged once per client
/// and window, with the address (never a token).
final class FairUse: Sendable {
    let resolver: ClientAddressResolver
    let origins: OriginPolicy
    let limiter: ClientLimiter
    /// The lookup allowances replicas share (Redis); nil: this replica's buckets only.
    let sharedBuckets: (any SharedTokenBuckets)?
    /// The session counts replicas share (Redis); nil: this replica's counts only.
    let sharedSessions: (any SharedSessionCounts)?
    private let logger: Logger
    /// `fair_use_refused_sessions_total{reason}` and `fair_use_throttled_lookups_total{scope}`,
    /// made at start so that `/metrics` exports them at 0 before the first refusal, as
    /// Prometheus expects of a counter.
    private let refusedForOrigin = Counter(label: "fair_use_refused_sessions_total", dimensions: [("reason", "origin")])
    private let refusedForSessions = Counter(
        label: "fair_use_refused_sessions_total", dimensions: [("reason", "too_many_sessions")])
    private let throttledLookups = Counter(label: "fair_use_throttled_lookups_total", dimensions: [("scope", "client")])
    /// `fair_use_tracked_clients`, set at each session admitted and each lookup charged (made
    /// once: each of those would otherwise look it up in the registry).
    private let trackedClients = Gauge(label: "fair_use_tracked_clients")

    init(
        resolver: ClientAddressResolver, origins: OriginPolicy, limiter: ClientLimiter,
        sharedBuckets: (any SharedTokenBuckets)? = nil, sharedSessions: (any SharedSessionCounts)? = nil, logger: Logger
    ) {
        self.resolver = resolver
        self.origins = origins
        self.limiter = limiter
        self.sharedBuckets = sharedBuckets
        self.sharedSessions = sharedSessions
        self.logger = logger
    }

    /// Decides a WebSocket upgrade: 403 for a foreign origin, 429 when the client already has
    /// `sessionsPerClient` sessions open; an accepted session is counted until it closes.
    func admitSession(_ request: HTTPRequest) -> UpgradeDecision {
        guard origins.allows(origin: request.headers["Origin"], host: request.headers["Host"]) else {
            refusedForOrigin.increment()
            return .refuse(JSONResponse.error(.forbidden, "origin_not_allowed", "this origin may not open WebSockets here"))
        }
        let client = resolver.client(of: request)
        let refusal = limiter.openSession(client)
        trackedClients.record(limiter.count)
        if let refusal { return tooManySessions(client, refusal) }
        let limiter = limiter
        guard let sharedSessions else { return .accept(onClose: { limiter.closeSession(client) }) }
        // Counted here; now across replicas (the upgrade waits for Redis, never an event loop).
        let limit = limiter.settings.sessionsPerClient
        let session = UUID().uuidString
        return .pending { [self] in
            let counted = await withCheckedContinuation { continuation in
                sharedSessions.open(client, session: session, limit: limit) { continuation.resume(returning: $0) }
            }
            guard counted != false else {
                limiter.closeSession(client)
                return tooManySessions(client, limiter.refuseSession(client))
            }
            // Counted, or no answer (the open may still have been counted): closed either way.
            return .accept(onClose: {
                limiter.closeSession(client)
                sharedSessions.close(client, session: session)
            })
        }
    }

    /// The 429 for one session too many, counted and (once per window) logged.
    private func tooManySessions(_ client: String, _ refusal: ClientLimiter.Refusal) -> UpgradeDecision {
        refusedForSessions.increment()
        if refusal.firstInWindow {
            logger.notice("client reached sessionsPerClient", metadata: [
                "client": "\(client)", "limit": "\(limiter.settings.sessionsPerClient)",
            ])
        }
        return .refuse(JSONResponse.error(
            .tooManyRequests, "too_many_sessions", "at most \(limiter.settings.sessionsPerClient) sessions per client",
            headers: ["Retry-After": "\(refusal.seconds)"]
        ))
    }

    /// The upstream allowance of the client that sent `request`.
    func quota(for request: HTTPRequest) -> ClientQuota {
        ClientQuota(client: resolver.client(of: request), fairUse: self)
    }

    /// Takes one upstream lookup from `client`'s bucket: nil when allowed, else seconds to wait.
    func spendLookup(_ client: String) -> Int? {
        let refusal = limiter.spendLookup(client)
        trackedClients.record(limiter.count)
        guard let refusal else { return nil }
        return refused(client, refusal)
    }

    /// Whether `client`'s allowance is spent now (this replica's bucket, or blocked by the
    /// shared one), without taking from it: the refusal's wait, counted and logged as a
    /// refusal; nil when a lookup would be allowed here.
    func refuseLookupIfSpent(_ client: String) -> Int? {
        guard let refusal = limiter.lookupRefusal(client) else { return nil }
        return refused(client, refusal)
    }

    /// `spendLookup`, then — with shared buckets — one token of the client's allowance across
    /// replicas; spent there, the client is refused here too until it refills.
    func spendLookup(_ client: String, completion: @escaping @Sendable (Int?) -> Void) {
        if let wait = spendLookup(client) { return completion(wait) }
        guard let sharedBuckets else { return completion(nil) }
        let perMinute = limiter.settings.lookupsPerMinute
        sharedBuckets.spend(client, capacity: perMinute, refillPerSecond: Double(perMinute) / 60) { [self] wait in
            guard let wait else { return completion(nil) }
            completion(refused(client, limiter.block(client, seconds: wait)))
        }
    }

    /// Counts and (once per window) logs a refused lookup; returns its wait.
    private func refused(_ client: String, _ refusal: ClientLimiter.Refusal) -> Int {
        throttledLookups.increment()
        if refusal.firstInWindow {
            logger.notice("client reached lookupsPerClientPerMinute", metadata: [
                "client": "\(client)", "limit": "\(limiter.settings.lookupsPerMinute)",
            ])
        }
        return refusal.seconds
    }
}

/// One client's upstream allowance, handed to the GitHub client with each lookup.
struct ClientQuota: UpstreamQuota {
    let client: String
    let fairUse: FairUse

    func spend() -> Int? { fairUse.spendLookup(client) }

    func spend(completion: @escaping @Sendable (Int?) -> Void) { fairUse.spendLookup(client, completion: completion) }

    func refusalIfSpent() -> Int? { fairUse.refuseLookupIfSpent(client) }
}

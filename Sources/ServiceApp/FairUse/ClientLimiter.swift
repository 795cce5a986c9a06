import Locking

/// Per-client fair-use state: open WebSocket sessions (at most `sessionsPerClient`) and a token
/// bucket of upstream lookups (`lookupsPerMinute`, refilled continuously).
///
/// Bounded memory: a client with no open session and a full bucket carries no state and is
/// dropped by the next sweep (every `idleTimeout`, or whenever the table reaches `maxClients`).
/// At the cap, the clients without open sessions that were seen least recently are forgotten
/// until the table is at 90 % of the cap: such a client comes back with a full bucket — no
/// more than a new address would get. Clients with open sessions are never forgotten (their
/// count must come down when their sessions close); there are at most `maxConnections` of them.
final class ClientLimiter: Sendable {

    struct Settings: Sendable, Equatable {
        var sessionsPerClient = 16
        var lookupsPerMinute = 60
        var maxClients = 100_000
        /// How long a client without open sessions is remembered, and how often the table is swept.
        var idleTimeout: Duration = .seconds(600)
    }

    /// A refusal: retry after `seconds`; `firstInWindow` is true the first time this client was
    /// refused within `warningWindow` (so the caller logs it once per window).
    struct Refusal: Equatable, Sendable {
        var seconds: Int
        var firstInWindow: Bool
    }

    fileprivate struct Entry: Sendable {
        var sessions = 0
        var bucket: TokenBucket
        var lastSeen: ContinuousClock.Instant
        var warnedAt: ContinuousClock.Instant?
        /// Refused until then by the allowance replicas share (`block`).
        var blockedUntil: ContinuousClock.Instant?
    }

    /// How long a refused session is told to wait.
    static let sessionRetryAfterSeconds = 10
    /// A client's refusals are logged once within this window.
    static let warningWindow: Duration = .seconds(60)

    let settings: Settings
    private let table: Locked<Table>
    private let now: @Sendable () -> ContinuousClock.Instant

    /// - Parameter now: the current instant (a virtual clock's in tests).
    init(settings: Settings, now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.settings = settings
        self.now = now
        table = Locked(Table(settings: settings, lastSweep: now()))
    }

    /// Counts a new session of `client`, or refuses it when the client has `sessionsPerClient` open.
    func openSession(_ client: String) -> Refusal? {
        let now = now()
        return table.withLock { table in
            var entry = table.entry(client, now: now)
            defer { table.entries[client] = entry }
            guard entry.sessions < settings.sessionsPerClient else {
                return Refusal(seconds: Self.sessionRetryAfterSeconds, firstInWindow: entry.warn(now: now))
            }
            entry.sessions += 1
            return nil
        }
    }

    /// The refusal for a session the replicas together have no room for (`client` has
    /// `sessionsPerClient` open across them).
    func refuseSession(_ client: String) -> Refusal {
        let now = now()
        return table.withLock { table in
            var entry = table.entry(client, now: now)
            defer { table.entries[client] = entry }
            return Refusal(seconds: Self.sessionRetryAfterSeconds, firstInWindow: entry.warn(now: now))
        }
    }

    /// A session of `client` closed.
    func closeSession(_ client: String) {
        let now = now()
        table.withLock { table in
            guard var entry = table.entries[client] else { return }
            entry.sessions = max(0, entry.sessions - 1)
            entry.lastSeen = now
            table.entries[client] = entry
        }
    }

    /// Takes one upstream lookup from `client`'s bucket, or refuses it.
    func spendLookup(_ client: String) -> Refusal? {
        let now = now()
        return table.withLock { table in
            var entry = table.entry(client, now: now)
            defer { table.entries[client] = entry }
            return entry.lookup(now: now, spending: true)
        }
    }

    /// The refusal `spendLookup` would give `client` now, without taking a token (nil: a
    /// lookup would be allowed). A client without state has a full bucket and is not added.
    func lookupRefusal(_ client: String) -> Refusal? {
        let now = now()
        return table.withLock { table in
            guard var entry = table.entries[client] else { return nil }
            defer { table.entries[client] = entry }
            return entry.lookup(now: now, spending: false)
        }
    }

    /// Refuses `client`'s lookups for `seconds`: the allowance replicas share is spent (its
    /// lookups went through other replicas). Returns the refusal to report for the lookup that
    /// found out.
    func block(_ client: String, seconds: Int) -> Refusal {
        let now = now()
        return table.withLock { table in
            var entry = table.entry(client, now: now)
            defer { table.entries[client] = entry }
            let until = now + .seconds(seconds)
            entry.blockedUntil = entry.blockedUntil.map { max($0, until) } ?? until
            return Refusal(seconds: seconds, firstInWindow: entry.warn(now: now))
        }
    }

    /// Clients remembered now.
    var count: Int { table.withLock { $0.entries.count } }

    /// Open sessions of `client`.
    func sessions(of client: String) -> Int { table.withLock { $0.entries[client]?.sessions ?? 0 } }

    // MARK: The table (reached only under its lock)

    /// Every remembered client's entry, and when the table was last swept.
    private struct Table: Sendable {
        let settings: Settings
        var entries: [String: Entry] = [:]
        var lastSweep: ContinuousClock.Instant

        init(settings: Settings, lastSweep: ContinuousClock.Instant) {
            self.settings = settings
            self.lastSweep = lastSweep
        }

        /// `client`'s entry, seen `now`: its own, or a new one with a full bucket (the table
        /// swept first when it is full or a sweep is due). The caller stores it back.
        mutating func entry(_ client: String, now: ContinuousClock.Instant) -> Entry {
            if var entry = entries[client] {
                entry.lastSeen = now
                return entry
            }
            if entries.count >= settings.maxClients || now - lastSweep >= settings.idleTimeout { sweep(now: now) }
            let refillInterval = settings.lookupsPerMinute > 0 ? Duration.seconds(60) / settings.lookupsPerMinute : nil
            let bucket = TokenBucket(capacity: settings.lookupsPerMinute, refillInterval: refillInterval, now: now)
            return Entry(bucket: bucket, lastSeen: now)
        }

        /// Drops clients that carry no state (no session, full bucket) or were idle `idleTimeout`;
        /// then, if the table is still at the cap, the least recently seen without open sessions.
        mutating func sweep(now: ContinuousClock.Instant) {
            lastSweep = now
            let idleTimeout = settings.idleTimeout
            entries = entries.filter { _, entry in
                entry.sessions > 0 || ((!entry.bucket.isFull(now: now) || entry.blockedUntil.map { $0 > now } ?? false) && now - entry.lastSeen < idleTimeout)
            }
            let target = settings.maxClients * 9 / 10
            guard entries.count >= settings.maxClients else { return }
            let forgettable = entries.filter { $0.value.sessions == 0 }.sorted { $0.value.lastSeen < $1.value.lastSeen }
            for (client, _) in forgettable.prefix(max(0, entries.count - target)) { entries[client] = nil }
        }
    }
}

extension ClientLimiter.Entry {
    /// A lookup of this client: refused while blocked or with an empty bucket; else a token
    /// taken when `spending`.
    mutating func lookup(now: ContinuousClock.Instant, spending: Bool) -> ClientLimiter.Refusal? {
        if let until = blockedUntil, until > now {
            return ClientLimiter.Refusal(seconds: max(1, Int(((until - now) / .seconds(1)).rounded(.up))), firstInWindow: warn(now: now))
        }
        var spent = bucket
        guard let wait = spent.spend(now: now) else {
            if spending {
                blockedUntil = nil
                bucket = spent
            }
            return nil
        }
        return ClientLimiter.Refusal(seconds: wait, firstInWindow: warn(now: now))
    }

    /// Whether a refusal now is the first within `warningWindow` (then it is logged).
    mutating func warn(now: ContinuousClock.Instant) -> Bool {
        if let warnedAt, now - warnedAt < ClientLimiter.warningWindow { return false }
        warnedAt = now
        return true
    }
}

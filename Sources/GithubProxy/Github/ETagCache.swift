import Foundation

/// Users GitHub sent with an `ETag`, so the next request for them can be conditional
/// (`If-None-Match`) and a `304 Not Modified` — which costs no rate limit — serves the copy.
///
/// Bounded: least recently used entries go first; entries older than `timeToLive` are dropped.
public final class ETagCache: @unchecked Sendable {
    // Sendable: `entries` and `tick` are guarded by `lock`.

    struct Entry {
        let etag: String
        let user: GithubUser
        let storedAt: Date
        var lastUsed: UInt64
    }

    public let capacity: Int
    public let timeToLive: TimeInterval
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var tick: UInt64 = 0
    private let now: @Sendable () -> Date

    public init(capacity: Int = 1_000, timeToLive: TimeInterval = 3_600, now: @escaping @Sendable () -> Date = Date.init) {
        self.capacity = max(1, capacity)
        self.timeToLive = timeToLive
        self.now = now
    }

    /// The cached ETag and user for `login` (case-insensitive), if present and not expired.
    public func entry(for login: String) -> (etag: String, user: GithubUser)? {
        let key = login.lowercased()
        let now = now()
        return lock.withLock {
            guard var entry = entries[key] else { return nil }
            guard now.timeIntervalSince(entry.storedAt) < timeToLive else {
                entries[key] = nil
                return nil
            }
            tick += 1
            entry.lastUsed = tick
            entries[key] = entry
            return (entry.etag, entry.user)
        }
    }

    /// Stores `user` under `login` with its `etag`, evicting the least recently used entry when full.
    public func store(_ user: GithubUser, etag: String, for login: String) {
        let key = login.lowercased()
        let storedAt = now()
        lock.withLock {
            tick += 1
            if entries[key] == nil, entries.count >= capacity,
               let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
                entries[oldest] = nil
            }
            entries[key] = Entry(etag: etag, user: user, storedAt: storedAt, lastUsed: tick)
        }
    }

    /// The number of cached users.
    public var count: Int { lock.withLock { entries.count } }
}

import Foundation

/// A cache entry as replicas share it: the answer's JSON (nil for a remembered 404), its ETag, and
/// when it was received and stays fresh.
public struct SharedEntry: Codable, Equatable, Sendable {
    public var body: Data?
    public var etag: String?
    public var storedAt: Date
    public var freshUntil: Date

    public init(body: Data?, etag: String?, storedAt: Date, freshUntil: Date) {
        self.body = body
        self.etag = etag
        self.storedAt = storedAt
        self.freshUntil = freshUntil
    }
}

/// Where replicas share their cache (Redis, with `RedisResponseStore`): a second level behind each
/// replica's own `ResponseCache`. Loads never fail: an unreachable store is a miss, so a replica
/// carries on with its own state.
public protocol SharedResponseStore: Sendable {
    /// The entry for `key`, or nil (absent, expired, or the store unreachable); `completion` runs
    /// once, on any thread.
    func load(_ key: String, completion: @escaping @Sendable (SharedEntry?) -> Void)
    /// Keeps `entry` under `key` for `ttl` (best effort).
    func save(_ key: String, _ entry: SharedEntry, ttl: Duration)
}

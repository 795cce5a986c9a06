import Foundation
import Locking

/// GitHub answers kept by the rules of a private HTTP cache (RFC 9111): served without a request
/// while fresh, revalidated with their `ETag` once stale, served stale when the upstream fails
/// (`staleIfError`), and `404`s remembered for `notFoundTTL`. Bounded by entries and bytes, least
/// recently used first out, O(1) per operation at any capacity.
public final class ResponseCache<Value: Sendable>: Sendable {

    public typealias Configuration = ResponseCacheConfiguration

    /// One cached answer.
    public struct Entry: Sendable {
        /// The answer, or nil for a remembered `404`.
        public var value: Value?
        public var etag: String?
        /// When the answer was received (or last revalidated).
        public var storedAt: Date
        /// Until when it is served without asking.
        public var freshUntil: Date

        /// Whether it may be served without asking at `now`.
        public func isFresh(at now: Date) -> Bool { now < freshUntil }

        /// Whole seconds since it was received (the `Age` to report).
        public func age(at now: Date) -> Int { max(0, Int(now.timeIntervalSince(storedAt))) }
    }

    public let configuration: Configuration
    /// The entries, most recently used last; reached only under its lock.
    private let store: Locked<LRUStore<String, Entry>>
    private let size: @Sendable (Value) -> Int
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - size: an estimate of a value's bytes in memory (counted against `maxBytes`).
    ///   - now: the clock (a virtual one in tests).
    public init(
        configuration: Configuration = Configuration(), size: @escaping @Sendable (Value) -> Int,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.configuration = configuration
        store = Locked(LRUStore(capacity: max(1, configuration.capacity), maxBytes: configuration.maxBytes))
        self.size = size
        self.now = now
    }

    private var enabled: Bool { configuration.capacity > 0 }

    /// The entry for `key` (case-insensitive), fresh or stale; nil when absent or past every
    /// use (a value older than `staleIfError` and no longer fresh, a `404` past its TTL).
    public func entry(for key: String) -> Entry? {
        guard enabled else { return nil }
        let key = key.lowercased()
        let now = now()
        return store.withLock { store in
            guard let entry = store.get(key) else { return nil }
            guard isUseful(entry, at: now) else {
                store.remove(key)
                return nil
            }
            return entry
        }
    }

    /// The entry for `key` when it may be served without asking.
    public func fresh(for key: String) -> Entry? {
        let now = now()
        return entry(for: key).flatMap { $0.isFresh(at: now) ? $0 : nil }
    }

    /// A copy to serve because the upstream failed: a value at most `staleIfError` old.
    public func staleIfError(for key: String) -> Entry? {
        let now = now()
        return entry(for: key).flatMap { entry in
            entry.value != nil && now.timeIntervalSince(entry.storedAt) <= configuration.staleIfError / .seconds(1) ? entry : nil
        }
    }

    /// Keeps a `200` answer as its directives allow (`no-store` removes any copy instead);
    /// returns the entry kept.
    @discardableResult
    public func store(_ value: Value, etag: String?, directives: CacheDirectives, for key: String) -> Entry? {
        guard enabled else { return nil }
        let key = key.lowercased()
        guard !directives.noStore else {
            store.withLock { store in _ = store.remove(key) }
            return nil
        }
        let now = now()
        let entry = Entry(
            value: value, etag: etag, storedAt: now,
            freshUntil: directives.freshUntil(responseTime: now, maxLifetime: configuration.maxFreshness)
        )
        let bytes = Self.entryBytes(key: key, etag: etag, value: value, size: size)
        store.withLock { store in _ = store.put(key, entry, bytes: bytes) }
        return entry
    }

    /// Remembers a `404` for `notFoundTTL`; returns the entry kept.
    @discardableResult
    public func storeNotFound(for key: String) -> Entry? {
        guard enabled, configuration.notFoundTTL > .zero else { return nil }
        let key = key.lowercased()
        let now = now()
        let entry = Entry(value: nil, etag: nil, storedAt: now, freshUntil: now.addingTimeInterval(configuration.notFoundTTL / .seconds(1)))
        store.withLock { store in _ = store.put(key, entry, bytes: Self.entryBytes(key: key, etag: nil, value: nil, size: size)) }
        return entry
    }

    /// Keeps an entry as another replica received it (its own times), unless a newer copy is
    /// here already.
    public func adopt(_ value: Value?, etag: String?, storedAt: Date, freshUntil: Date, for key: String) {
        guard enabled else { return }
        let key = key.lowercased()
        let entry = Entry(value: value, etag: etag, storedAt: storedAt, freshUntil: freshUntil)
        let bytes = Self.entryBytes(key: key, etag: etag, value: value, size: size)
        store.withLock { store in
            if let current = store.peek(key), current.storedAt >= storedAt { return }
            _ = store.put(key, entry, bytes: bytes)
        }
    }

    /// How long a shared copy of `entry` is worth keeping from now: while fresh, and — for a
    /// value — while it can still stand in for a failed request or be revalidated.
    public func sharedLifetime(of entry: Entry) -> Duration {
        let now = now()
        let fresh = entry.freshUntil.timeIntervalSince(now)
        guard entry.value != nil else { return .seconds(fresh) }
        return .seconds(max(fresh, entry.storedAt.addingTimeInterval(configuration.staleIfError / .seconds(1)).timeIntervalSince(now)))
    }

    /// A `304 Not Modified` confirmed the copy: it is fresh again as the `304`'s directives say.
    /// Returns the refreshed entry (nil when it is gone meanwhile).
    @discardableResult
    public func revalidated(for key: String, directives: CacheDirectives) -> Entry? {
        guard enabled else { return nil }
        let key = key.lowercased()
        let now = now()
        // The copy's value and ETag stay as they were, and so does its size: the byte count
        // the store already keeps (no call to `size` under the lock).
        return store.withLock { store in
            guard var entry = store.peek(key), let bytes = store.bytes(of: key) else { return nil }
            entry.storedAt = now
            entry.freshUntil = directives.noStore ? now : directives.freshUntil(responseTime: now, maxLifetime: configuration.maxFreshness)
            store.put(key, entry, bytes: bytes)
            return entry
        }
    }

    /// `entry`'s age (whole seconds since it was received or confirmed) and TTL (whole seconds
    /// it stays fresh, negative once stale) now.
    public func ageAndTTL(of entry: Entry) -> (age: Int, ttl: Int) {
        let now = now()
        return (entry.age(at: now), Int(entry.freshUntil.timeIntervalSince(now).rounded(.down)))
    }

    /// Forgets `key`.
    public func remove(_ key: String) {
        _ = store.withLock { store in store.remove(key.lowercased()) }
    }

    /// Entries kept.
    public var count: Int { store.withLock { store in store.count } }

    /// The bytes the entries are estimated to take.
    public var bytes: Int { store.withLock { store in store.bytes } }

    private func isUseful(_ entry: Entry, at now: Date) -> Bool {
        if entry.isFresh(at: now) { return true }
        // A stale value is still worth a conditional request or a stale-if-error answer.
        return entry.value != nil && (entry.etag != nil || now.timeIntervalSince(entry.storedAt) <= configuration.staleIfError / .seconds(1))
    }

    /// The bytes one entry counts against `maxBytes`: its key, ETag and value (as `size`
    /// estimates it) plus the bookkeeping around them (slot, index, dates).
    public static func entryBytes(key: String, etag: String?, value: Value?, size: (Value) -> Int) -> Int {
        160 + key.utf8.count + (etag?.utf8.count ?? 0) + (value.map(size) ?? 0)
    }
}

/// The limits and lifetimes of a `ResponseCache`.
public struct ResponseCacheConfiguration: Sendable {
    /// Entries kept at most; 0 disables the cache.
    public var capacity: Int
    /// Bytes kept at most (each entry's estimate, see `ResponseCache.init`).
    public var maxBytes: Int
    /// The longest an answer is served without asking, whatever `max-age` says.
    public var maxFreshness: Duration
    /// How long a `404` is remembered; zero forgets it at once.
    public var notFoundTTL: Duration
    /// How old a copy may be and still be served when the upstream fails.
    public var staleIfError: Duration

    public init(
        capacity: Int = 1_000, maxBytes: Int = 16 << 20, maxFreshness: Duration = .seconds(3_600),
        notFoundTTL: Duration = .seconds(60), staleIfError: Duration = .seconds(86_400)
    ) {
        self.capacity = capacity
        self.maxBytes = maxBytes
        self.maxFreshness = maxFreshness
        self.notFoundTTL = notFoundTTL
        self.staleIfError = staleIfError
    }
}

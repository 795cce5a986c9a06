/// An answer and where it came from, for the `stale` flag of results and the REST `Cache-Status`
/// (RFC 9211) and `Age` headers.
public struct CachedAnswer<Value: Sendable>: Sendable {
    /// How the answer was obtained.
    public enum Source: String, Sendable {
        /// From the cache while fresh: no upstream request.
        case fresh
        /// The cached copy, confirmed by a `304 Not Modified`.
        case revalidated
        /// A new `200` from the upstream.
        case fetched
        /// The cached copy, served because the upstream failed (stale-if-error).
        case stale
    }

    public var value: Value
    public var source: Source
    /// Seconds since the copy was received or last confirmed.
    public var age: Int
    /// Seconds it stays fresh (negative: stale by that much).
    public var ttl: Int

    public init(value: Value, source: Source, age: Int = 0, ttl: Int = 0) {
        self.value = value
        self.source = source
        self.age = age
        self.ttl = ttl
    }

    /// The RFC 9211 `Cache-Status` value, `cacheName` naming this service's cache.
    public func cacheStatus(cacheName: String) -> String {
        switch source {
        case .fresh: "\(cacheName); hit; ttl=\(ttl)"
        case .stale: "\(cacheName); hit; ttl=\(ttl); detail=stale-if-error"
        case .revalidated: "\(cacheName); fwd=stale; fwd-status=304; ttl=\(ttl)"
        case .fetched: "\(cacheName); fwd=uri-miss; fwd-status=200; ttl=\(ttl); stored"
        }
    }
}

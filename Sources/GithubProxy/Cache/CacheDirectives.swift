import Foundation

/// What a response says about caching it in a private cache (RFC 9111): its `Cache-Control`
/// directives, `Age` and `Date`.
public struct CacheDirectives: Equatable, Sendable {
    /// `no-store`: the response must not be kept.
    public var noStore = false
    /// `no-cache`: it may be kept, but never served without revalidating first.
    public var noCache = false
    /// `max-age` in seconds (`s-maxage` is for shared caches and is ignored here).
    public var maxAge: Int?
    /// The `Age` header: seconds the response already spent in caches on its way.
    public var age: Int?
    /// The `Date` header: when the origin made the response.
    public var date: Date?

    public init(noStore: Bool = false, noCache: Bool = false, maxAge: Int? = nil, age: Int? = nil, date: Date? = nil) {
        self.noStore = noStore
        self.noCache = noCache
        self.maxAge = maxAge
        self.age = age
        self.date = date
    }

    /// Reads the directives from response headers (names case-insensitive, as `header` looks
    /// them up). Unknown directives are ignored; a malformed `max-age` counts as absent.
    public init(header: (String) -> String?) {
        for part in (header("Cache-Control") ?? "").split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingOptionalWhitespace() }
            switch pieces.first?.lowercased() {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age":
                guard pieces.count == 2 else { break }
                var value = pieces[1]
                while value.first == "\"" { value.removeFirst() }
                while value.last == "\"" { value.removeLast() }
                if let seconds = Int(value), seconds >= 0 { maxAge = seconds }
            default: break
            }
        }
        age = header("Age").flatMap { Int($0.trimmingOptionalWhitespace()) }.map { max(0, $0) }
        date = header("Date").flatMap(IMFFixdate.date)
    }

    /// Until when a response received at `responseTime` is fresh (RFC 9111 §4.2): its freshness
    /// lifetime (`max-age`, none under `no-cache`, at most `maxLifetime`) minus its age when
    /// received (the larger of `Age` and `responseTime − Date`).
    public func freshUntil(responseTime: Date, maxLifetime: Duration) -> Date {
        guard !noCache, let maxAge else { return responseTime }
        let apparentAge = date.map { max(0, responseTime.timeIntervalSince($0)) } ?? 0
        let initialAge = max(apparentAge, TimeInterval(age ?? 0))
        let lifetime = min(TimeInterval(maxAge), maxLifetime / .seconds(1))
        return responseTime.addingTimeInterval(max(0, lifetime - initialAge))
    }
}

/// How long to wait before connecting to Redis again, one policy for the pool's connections and
/// the subscriber: 50 ms after the first failure, doubling to at most 2 s, back to nothing once a
/// connection works. A short cap, so a restarted Redis is used again within two seconds.
struct ReconnectBackoff: Equatable {
    static let first: Duration = .milliseconds(50)
    static let cap: Duration = .seconds(2)

    /// The wait after the latest failure; zero while connections work.
    private(set) var delay: Duration = .zero

    /// A connection failed: returns the wait before the next attempt.
    mutating func failed() -> Duration {
        delay = min(Self.cap, max(Self.first, delay * 2))
        return delay
    }

    /// A connection worked.
    mutating func succeeded() { delay = .zero }
}

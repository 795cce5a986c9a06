/// Where the sentinels are and which master they watch (`redis.sentinels`, `redis.masterName`):
/// with these the master's address is asked of the sentinels rather than configured.
public struct RedisSentinels: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The sentinels, asked in this order (the next one when one fails).
    public var addresses: [RedisAddress]
    /// The master's name in the sentinels' configuration (`sentinel monitor <name> …`).
    public var masterName: String
    /// Sent with `AUTH` to every sentinel; nil: none. Never printed.
    public var password: String?
    /// How long a connection to a sentinel may be quiet before a `PING` checks it (and,
    /// unanswered as long again, it is given up and the next sentinel asked).
    public var pingInterval: Duration

    public init(addresses: [RedisAddress], masterName: String, password: String? = nil, pingInterval: Duration = .seconds(5)) {
        self.addresses = addresses
        self.masterName = masterName
        self.password = password
        self.pingInterval = max(.milliseconds(100), pingInterval)
    }

    /// `sentinels 127.0.0.1:26379,… master mymaster`, and whether a password is set.
    public var description: String {
        "sentinels \(addresses.map(\.description).joined(separator: ",")) master \(masterName)"
            + (password == nil ? "" : " (sentinel password set)")
    }

    /// The description only: `dump` and reflection never reach the password.
    public var customMirror: Mirror { Mirror(self, children: ["description": description], displayStyle: .struct) }
}

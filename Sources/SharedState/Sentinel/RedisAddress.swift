/// A Redis server's (or a sentinel's) address: a host name or IP address and a port.
public struct RedisAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port` (`[::1]:26379` for IPv6); nil without a port in 1...65535 or a host.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let colon = trimmed.lastIndex(of: ":"), let port = Int(trimmed[trimmed.index(after: colon)...]),
              (1...65_535).contains(port) else { return nil }
        var host = String(trimmed[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(" ") else { return nil }
        self.init(host: host, port: port)
    }

    /// `host:port`.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

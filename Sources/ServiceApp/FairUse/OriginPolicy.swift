import Foundation

/// Which browser origins may open WebSockets: the service's own (the `Origin` names the host and
/// port of the request's `Host`), those listed in `allowedOrigins` (`"*"`: any), and upgrades
/// without an `Origin` (websocat, scripts: no browser to hijack). Everything else is refused,
/// so another website cannot drive the service from its visitors' browsers.
struct OriginPolicy: Sendable {
    /// Listed origins, normalised (`https://example.com`, default ports dropped).
    let allowed: Set<String>
    let allowsAny: Bool

    init(allowedOrigins: [String]) {
        allowsAny = allowedOrigins.contains("*")
        allowed = Set(allowedOrigins.compactMap { Self.parse($0).map(Self.normalised) })
    }

    /// Whether an upgrade with `origin` and `host` (the request's headers) may proceed.
    func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        if allowsAny { return true }
        guard let parsed = Self.parse(origin) else { return false }
        if allowed.contains(Self.normalised(parsed)) { return true }
        guard let host, let (hostName, hostPort) = Self.hostAndPort(host) else { return false }
        return parsed.host == hostName && parsed.port == (hostPort ?? Self.defaultPort(parsed.scheme))
    }

    private struct Origin {
        var scheme: String
        var host: String
        var port: Int
    }

    /// `scheme://host[:port]` (no path); nil for `null` and anything else.
    private static func parse(_ text: String) -> Origin? {
        let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let range = lowered.range(of: "://") else { return nil }
        let scheme = String(lowered[..<range.lowerBound])
        var rest = String(lowered[range.upperBound...])
        if rest.hasSuffix("/") { rest.removeLast() }
        guard ["http", "https"].contains(scheme), !rest.contains("/"), let (host, port) = hostAndPort(rest) else { return nil }
        return Origin(scheme: scheme, host: host, port: port ?? defaultPort(scheme))
    }

    private static func normalised(_ origin: Origin) -> String { "\(origin.scheme)://\(origin.host):\(origin.port)" }

    /// `example.com:8080` → ("example.com", 8080); `[::1]` → ("[::1]", nil).
    private static func hostAndPort(_ text: String) -> (String, Int?)? {
        let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !lowered.isEmpty else { return nil }
        if lowered.hasPrefix("[") {
            guard let close = lowered.firstIndex(of: "]") else { return nil }
            let host = String(lowered[...close])
            let after = lowered[lowered.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.hasPrefix(":"), let port = Int(after.dropFirst()) else { return nil }
            return (host, port)
        }
        let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (lowered, nil)
        case 2: return Int(parts[1]).map { (String(parts[0]), $0) }
        default: return nil
        }
    }

    private static func defaultPort(_ scheme: String) -> Int { scheme == "https" ? 443 : 80 }
}

import Foundation
import HTTPServer

/// Who a request comes from: the TCP peer's address, or — when the peer is a trusted proxy —
/// the right-most address of `Forwarded` (RFC 7239) or `X-Forwarded-For` that is not itself a
/// trusted proxy. Forwarding headers from any other peer are ignored, so only the proxies the
/// operator listed can name a client.
struct ClientAddressResolver: Sendable {
    let trustedProxies: [IPAddressRange]

    /// The client of `request`, as a canonical address (or, for a hop a proxy could not name,
    /// its token as sent, at most 64 characters).
    func client(of request: HTTPRequest) -> String {
        guard let peer = request.peer else { return "local" }
        let peerBytes = IPAddressRange.bytes(of: peer.host)
        let peerText = peerBytes.map(IPAddressRange.canonical) ?? peer.host
        guard let peerBytes, isTrusted(peerBytes) else { return peerText }
        var hops = Self.forwardedFor(request.headers["Forwarded"])
        if hops.isEmpty { hops = Self.xForwardedFor(request.headers["X-Forwarded-For"]) }
        // Right to left: every hop a trusted proxy added names the one before it.
        var client = peerText
        for hop in hops.reversed() {
            guard let bytes = IPAddressRange.bytes(of: hop) else { return String(hop.prefix(64)) }
            client = IPAddressRange.canonical(bytes)
            if !isTrusted(bytes) { return client }
        }
        return client
    }

    private func isTrusted(_ bytes: [UInt8]) -> Bool {
        trustedProxies.contains { $0.contains(bytes) }
    }

    /// `X-Forwarded-For: client, proxy1, proxy2` → its addresses, ports and brackets removed.
    static func xForwardedFor(_ value: String?) -> [String] {
        guard let value else { return [] }
        return value.split(separator: ",").map { address(String($0)) }.filter { !$0.isEmpty }
    }

    /// `Forwarded: for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"` → the `for` addresses.
    static func forwardedFor(_ value: String?) -> [String] {
        guard let value else { return [] }
        return value.split(separator: ",").compactMap { element in
            for pair in element.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" else { continue }
                return address(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " \t\"")))
            }
            return nil
        }
        .filter { !$0.isEmpty }
    }

    /// An address without its port or IPv6 brackets: `[::1]:80` → `::1`, `1.2.3.4:5` → `1.2.3.4`.
    static func address(_ token: String) -> String {
        let text = token.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            return String(text[text.index(after: text.startIndex)..<close])
        }
        let colons = text.filter { $0 == ":" }.count
        if colons == 1, let colon = text.firstIndex(of: ":") { return String(text[..<colon]) }
        return text
    }
}

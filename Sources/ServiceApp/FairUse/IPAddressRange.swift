#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address or CIDR range (`10.0.0.0/8`, `fd00::/8`, `127.0.0.1`), matched
/// against addresses in text form. IPv4 and IPv4-mapped IPv6 addresses (`::ffff:10.1.2.3`)
/// are the same address.
struct IPAddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The network's 16 bytes (IPv4 as IPv4-mapped IPv6).
    private let network: [UInt8]
    /// Leading bits that must match, counted over the 16 bytes.
    private let prefixBits: Int
    let description: String

    /// Parses `address` or `address/prefix`; nil when it is neither.
    init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first, let bytes = Self.bytes(of: first) else { return nil }
        let isV4 = Self.isMappedV4(bytes)
        let width = isV4 ? 32 : 128
        var prefix = width
        if parts.count == 2 {
            guard let bits = Int(parts[1]), (0...width).contains(bits) else { return nil }
            prefix = bits
        }
        prefixBits = isV4 ? 96 + prefix : prefix
        network = bytes
        description = text.trimmingCharacters(in: .whitespaces)
    }

    /// Whether the address `text` is in the range (false when it is not an address).
    func contains(_ text: String) -> Bool {
        guard let bytes = Self.bytes(of: text) else { return false }
        return contains(bytes)
    }

    func contains(_ bytes: [UInt8]) -> Bool {
        var remaining = prefixBits
        for index in 0..<16 where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if bytes[index] & mask != network[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The 16 bytes of an IPv4 or IPv6 address in text form (IPv4 mapped into IPv6).
    static func bytes(of text: String) -> [UInt8]? {
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        var v4 = in_addr()
        guard inet_pton(AF_INET, text, &v4) == 1 else { return nil }
        return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + withUnsafeBytes(of: &v4) { Array($0) }
    }

    /// The canonical text of an address (`::ffff:1.2.3.4` → `1.2.3.4`, `::0001` → `::1`).
    static func canonical(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if isMappedV4(bytes) {
            var v4 = in_addr()
            withUnsafeMutableBytes(of: &v4) { $0.copyBytes(from: bytes[12..<16]) }
            inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count))
        } else {
            var v6 = in6_addr()
            withUnsafeMutableBytes(of: &v6) { $0.copyBytes(from: bytes) }
            inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count))
        }
        let length = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isMappedV4(_ bytes: [UInt8]) -> Bool {
        bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte classes of the HTTP grammar (RFC 9110 §5.6).
enum HTTPSyntax {
    static let cr: UInt8 = 13
    static let lf: UInt8 = 10
    static let space: UInt8 = 32
    static let tab: UInt8 = 9
    static let colon: UInt8 = 58

    /// `tchar`: the bytes of a token (method, field name).
    @inline(__always)
    static func isTchar(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true  // DIGIT, ALPHA
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E:
            return true  // ! # $ % & ' * + - . ^ _ ` | ~
        default: return false
        }
    }

    /// Whether every byte is a `tchar` and there is at least one.
    static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        for b in bytes where !isTchar(b) { return false }
        return true
    }

    @inline(__always)
    static func isWhitespace(_ b: UInt8) -> Bool { b == space || b == tab }

    /// The bytes without leading and trailing SP/HTAB (optional whitespace).
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// ASCII case-insensitive comparison of bytes with a lowercase ASCII literal.
    static func equalsLowercase(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: StaticString) -> Bool {
        guard bytes.count == lower.utf8CodeUnitCount else { return false }
        let l = lower.utf8Start
        for i in 0..<bytes.count {
            var b = bytes[i]
            if b >= 0x41 && b <= 0x5A { b |= 0x20 }
            if b != l[i] { return false }
        }
        return true
    }

    /// `bytes` as a String, or `candidate` itself when it holds exactly those bytes. The parser
    /// offers the previous request's string at the same place (a keep-alive client repeats its
    /// target and most fields: User-Agent, Accept, Sec-CH-UA…), so a repeated long string costs
    /// a comparison instead of an allocation. Strings of up to 15 bytes are stored inline and
    /// cost no allocation, so they are not compared.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, reusing candidate: String?) -> String {
        if bytes.count > 15, let candidate, candidate.utf8.count == bytes.count {
            let same = candidate.utf8.withContiguousStorageIfAvailable { stored in
                memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
            if same ?? candidate.utf8.elementsEqual(bytes) { return candidate }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the two strings have the same UTF-8 bytes (not Unicode equivalence, which `==`
    /// compares): a `memcmp` of their storage.
    static func sameBytes<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let compared = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
            }
        }
        return (compared ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }
}

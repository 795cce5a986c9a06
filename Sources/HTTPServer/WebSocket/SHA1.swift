/// SHA-1 (FIPS 180-4), for `Sec-WebSocket-Accept` only: Foundation on Linux has none.
/// Not for security purposes.
public struct SHA1: Sendable {
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    private var block = [UInt8](repeating: 0, count: 64)
    private var blockCount = 0
    private var totalLength: UInt64 = 0

    public init() {}

    /// The 20-byte digest of `bytes`.
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var sha = SHA1()
        sha.update(bytes)
        return sha.finalize()
    }

    /// Adds bytes to the message.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            block[blockCount] = byte
            blockCount += 1
            totalLength &+= 1
            if blockCount == 64 { compress() }
        }
    }

    /// Pads the message and returns its digest.
    public consuming func finalize() -> [UInt8] {
        let bitLength = totalLength &* 8
        block[blockCount] = 0x80
        blockCount += 1
        if blockCount > 56 {
            while blockCount < 64 { block[blockCount] = 0; blockCount += 1 }
            compress()
        }
        while blockCount < 56 { block[blockCount] = 0; blockCount += 1 }
        for shift in stride(from: 56, through: 0, by: -8) {
            block[blockCount] = UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))
            blockCount += 1
        }
        compress()
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in [h.0, h.1, h.2, h.3, h.4] {
            digest.append(contentsOf: [
                UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word),
            ])
        }
        return digest
    }

    private mutating func compress() {
        var w = [UInt32](repeating: 0, count: 80)
        for i in 0 ..< 16 {
            w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16
                | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
        }
        for i in 16 ..< 80 { w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
        var (a, b, c, d, e) = h
        for i in 0 ..< 80 {
            let f: UInt32, k: UInt32
            switch i {
            case 0 ..< 20: f = (b & c) | (~b & d); k = 0x5A82_7999
            case 20 ..< 40: f = b ^ c ^ d; k = 0x6ED9_EBA1
            case 40 ..< 60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
            default: f = b ^ c ^ d; k = 0xCA62_C1D6
            }
            let temp = rotl(a, 5) &+ f &+ e &+ k &+ w[i]
            e = d; d = c; c = rotl(b, 30); b = a; a = temp
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        blockCount = 0
    }

    private func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
}

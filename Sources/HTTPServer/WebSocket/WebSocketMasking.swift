/// XOR masking of WebSocket payloads (RFC 6455 section 5.3), eight bytes at a time.
enum WebSocketMasking {
    /// XORs `buffer` in place with `key` (the 4 key bytes in wire order, as loaded from memory),
    /// where `buffer[0]` is payload byte number `offset`.
    static func apply(key: UInt32, to buffer: UnsafeMutableRawBufferPointer, offset: Int) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        let word = rotated(key, by: offset & 3)
        let wide = UInt64(word) | (UInt64(word) << 32)
        let count = buffer.count
        var index = 0
        while index &+ 8 <= count {
            let value = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            base.storeBytes(of: value ^ wide, toByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        withUnsafeBytes(of: word) { keyBytes in
            while index < count {
                buffer[index] ^= keyBytes[index & 3]
                index &+= 1
            }
        }
    }

    /// XORs a byte array in place; convenience for encoders and tests.
    static func apply(key: UInt32, to bytes: inout [UInt8], from start: Int = 0) {
        guard start < bytes.count else { return }
        bytes.withUnsafeMutableBytes { raw in
            apply(key: key, to: UnsafeMutableRawBufferPointer(rebasing: raw[start...]), offset: 0)
        }
    }

    /// The key whose memory byte `i` is the original key's byte `(i + shift) % 4`.
    private static func rotated(_ key: UInt32, by shift: Int) -> UInt32 {
        guard shift != 0 else { return key }
        let bits = UInt32(shift &* 8)
        #if _endian(little)
        return (key >> bits) | (key << (32 &- bits))
        #else
        return (key << bits) | (key >> (32 &- bits))
        #endif
    }

    /// Loads four key bytes, in wire order, as a masking word.
    static func key(_ bytes: (UInt8, UInt8, UInt8, UInt8)) -> UInt32 {
        withUnsafeBytes(of: bytes) { $0.loadUnaligned(as: UInt32.self) }
    }
}

/// Framing for streamed response bodies (`Transfer-Encoding: chunked`, RFC 9112 §7.1).
public enum HTTPChunkedEncoding {
    /// The last chunk with an empty trailer section: ends a chunked body.
    public static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// Appends `bytes` as one chunk (`hex-size CRLF data CRLF`). An empty chunk appends nothing,
    /// as a zero-size chunk would end the body.
    public static func appendChunk(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        appendChunkHeader(count: bytes.count, to: &out)
        out.append(contentsOf: bytes)
        out.append(HTTPSyntax.cr)
        out.append(HTTPSyntax.lf)
    }

    /// Appends `bytes` as one chunk; see ``appendChunk(_:to:)-(UnsafeRawBufferPointer,_)``.
    public static func appendChunk(_ bytes: [UInt8], to out: inout [UInt8]) {
        bytes.withUnsafeBytes { appendChunk($0, to: &out) }
    }

    /// `bytes` framed as one chunk (empty for empty input).
    public static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 20)
        appendChunk(bytes, to: &out)
        return out
    }

    /// Appends the `hex-size CRLF` that precedes `count` data bytes (for vectored writes; the
    /// data must then be followed by CRLF).
    public static func appendChunkHeader(count: Int, to out: inout [UInt8]) {
        var digits = 1
        while digits < 16, count >> (4 * digits) != 0 { digits += 1 }
        for i in stride(from: digits - 1, through: 0, by: -1) {
            let nibble = UInt8(truncatingIfNeeded: (count >> (4 * i)) & 0xF)
            out.append(nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10)
        }
        out.append(HTTPSyntax.cr)
        out.append(HTTPSyntax.lf)
    }
}

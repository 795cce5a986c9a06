/// Chunked transfer coding (RFC 9112 §7.1): sizes, data, CRLF after data, trailers.
extension HTTPRequestParser {
    /// Parses `chunk-size [ chunk-ext ] CRLF`; extensions are ignored. A zero size starts the
    /// trailer section.
    mutating func parseChunkSizeLine(_ line: Range<Int>) throws(HTTPParseError) {
        let content = try strippingCR(line, .invalidChunk)
        let size: Int? = buffer.withUnsafeBufferPointer { all in
            Self.parseChunkSize(UnsafeBufferPointer(rebasing: all[content]))
        }
        guard let size else { throw .invalidChunk }
        if size == 0 {
            headerBytes = 0
            headerCount = 0
            state = .trailers
        } else {
            if size > limits.maxBodyBytes - body.count { throw .bodyTooLarge }
            state = .chunkData(remaining: size)
        }
    }

    /// The hex size, or `nil` for no digits, overflow, or garbage before the extensions.
    private static func parseChunkSize(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        var size = 0
        var i = 0
        while i < line.count, let digit = hexValue(line[i]) {
            guard size <= (Int.max - 15) / 16 else { return nil }
            size = size * 16 + digit
            i += 1
        }
        guard i > 0 else { return nil }
        while i < line.count, HTTPSyntax.isWhitespace(line[i]) { i += 1 }  // BWS before ";"
        guard i == line.count || line[i] == 0x3B else { return nil }
        for b in line[i...] where b == 0 || b == HTTPSyntax.cr { return nil }
        return size
    }

    private static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: return Int(b - 0x30)
        case 0x41...0x46: return Int(b - 0x41 + 10)
        case 0x61...0x66: return Int(b - 0x61 + 10)
        default: return nil
        }
    }

    /// Consumes the CRLF after chunk data; `false` if it has not fully arrived.
    mutating func takeChunkDataEnd() throws(HTTPParseError) -> Bool {
        let available = buffer.count - readIndex
        if available >= 1, buffer[readIndex] != HTTPSyntax.cr { throw .invalidChunk }
        guard available >= 2 else { return false }
        if buffer[readIndex + 1] != HTTPSyntax.lf { throw .invalidChunk }
        readIndex += 2
        scanIndex = readIndex
        state = .chunkSize
        return true
    }
}

/// How deeply a JSON text nests arrays and objects, counted without parsing it: brackets and
/// braces outside strings. Used to tell a client why a frame the parser refused was refused.
enum JSONNesting {
    /// Whether `text` opens more than `limit` arrays and objects inside one another at some
    /// point. Stops at the first level past `limit`; malformed text is scanned as it comes.
    static func exceeds(_ limit: Int, in text: some Sequence<UInt8>) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in text {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return false
    }
}

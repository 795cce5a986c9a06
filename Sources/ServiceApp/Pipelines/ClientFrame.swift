import PipelineWire

/// What a client's text frame on `/ws` means: the current value of the username field, or
/// something unreadable.
enum ClientFrame: Equatable {
    /// The field's current value.
    case input(String)
    /// A frame that cannot be read; the session answers with an `error` event and goes on.
    case unreadable(String)

    /// Reads a text frame: `{"type":"input","value":…}`, or any other text, which is the value
    /// itself with one trailing `\n` or `\r\n` removed (so `websocat` works line by line).
    init(text: String) {
        guard text.utf8.first == UInt8(ascii: "{") else {
            // On bytes: "\r\n" is a single Character in Swift.
            var bytes = Substring(text).utf8[...]
            if bytes.last == UInt8(ascii: "\n") {
                bytes = bytes.dropLast()
                if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            }
            self = .input(String(decoding: bytes, as: UTF8.self))
            return
        }
        if let value = Self.plainInput(text) {
            self = .input(value)
            return
        }
        guard let object = JSONObjectStrings(text) else {
            self = .unreadable("a frame starting with '{' must be a JSON object")
            return
        }
        guard let type = object["type"] else {
            self = .unreadable("the JSON object has no \"type\"")
            return
        }
        guard type == "input" else {
            self = .unreadable("unknown message type \"\(type)\"")
            return
        }
        guard let value = object["value"] else {
            self = .unreadable("an input message needs a string \"value\"")
            return
        }
        self = .input(value)
    }

    /// The value of a frame written exactly as the page and most clients write it,
    /// `{"type":"input","value":"…"}` with a value that needs no unescaping (no `"`, `\` or
    /// control character), read straight from its bytes: the general parser reads such a frame
    /// to the same value, at several times the cost. Nil for any other text.
    static func plainInput(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            let prefix = plainPrefix.count
            guard bytes.count >= prefix + 2, bytes[bytes.count - 2] == UInt8(ascii: "\""),
                  bytes[bytes.count - 1] == UInt8(ascii: "}"), bytes.starts(with: plainPrefix)
            else { return nil }
            let value = UnsafeBufferPointer(rebasing: bytes[prefix..<(bytes.count - 2)])
            for byte in value where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return nil }
            return String(decoding: value, as: UTF8.self)
        }
    }

    /// What precedes the value; `"}` follows it.
    private static let plainPrefix = Array(#"{"type":"input","value":""#.utf8)
}

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
        let bytes = text.utf8
        guard bytes.count >= plainPrefix.count + plainSuffix.count,
              bytes.starts(with: plainPrefix), bytes.reversed().starts(with: plainSuffix.reversed())
        else { return nil }
        let start = bytes.index(bytes.startIndex, offsetBy: plainPrefix.count)
        let end = bytes.index(bytes.endIndex, offsetBy: -plainSuffix.count)
        let value = bytes[start..<end]
        guard !value.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return nil }
        return String(Substring(value))
    }

    private static let plainPrefix = Array(#"{"type":"input","value":""#.utf8)
    private static let plainSuffix = Array(#""}"#.utf8)
}

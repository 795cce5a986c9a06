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
}

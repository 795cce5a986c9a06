/// The string members of one JSON object text, as the endpoints' client frames are read
/// (`{"type":"input","value":"heckj"}`): checked whole by `JSONScanner` (what Foundation's
/// decoder accepts), without building a dictionary of `Any`.
public struct JSONObjectStrings: Sendable {
    /// Each member's key and, when its value is a string, that string.
    private let members: [(key: String, string: String?)]

    /// Reads `text`; nil when it is not one JSON object (whitespace around it allowed) nested at
    /// most `maxDepth` deep.
    public init?(_ text: String, maxDepth: Int = 512) {
        var text = text
        let members = text.withUTF8 { bytes in try? JSONScanner.members(of: bytes, maxDepth: maxDepth) }
        guard let members else { return nil }
        self.members = members.map { member in
            if case .string(let string) = member.value { (member.key, string) } else { (member.key, nil) }
        }
    }

    /// Member `key`'s value when it is a string; nil when it is absent or not a string. With a
    /// key given twice, the first one counts (as Foundation's decoder reads it).
    public subscript(key: String) -> String? {
        members.first { $0.key == key }?.string
    }
}

/// The project's one JSON writer: compact text, one line, members in the order written (callers
/// write keys sorted, as the contract wants every server frame; debug builds check it).
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.member("id", string: "u1")
/// writer.member("type", string: "subscribed")
/// writer.endObject()
/// writer.text // {"id":"u1","type":"subscribed"}
/// ```
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var text = ""
    /// How many objects are open (at most 64).
    private var depth = 0
    /// Bit `d`: the open object at depth `d` has a member (a comma goes before the next).
    private var hasMembers: UInt64 = 0
    #if DEBUG
    /// Per open object, its last key: the next must sort after it.
    private var lastKeys: [String?] = []
    #endif

    /// An empty writer; `capacity` bytes are reserved.
    public init(capacity: Int = 64) {
        text.reserveCapacity(capacity)
    }

    /// Opens an object (at the top, or as the value of the member whose key was just written).
    public mutating func beginObject() {
        precondition(depth < 64, "objects nested more than 64 deep")
        text.append("{")
        hasMembers &= ~(1 << UInt64(depth))
        depth += 1
        #if DEBUG
        lastKeys.append(nil)
        #endif
    }

    /// Opens an object as the value of member `key`.
    public mutating func beginObject(_ key: String) {
        self.key(key)
        beginObject()
    }

    /// Closes the innermost open object.
    public mutating func endObject() {
        precondition(depth > 0, "endObject without beginObject")
        depth -= 1
        #if DEBUG
        lastKeys.removeLast()
        #endif
        text.append("}")
    }

    /// A member whose value is `value`, quoted.
    public mutating func member(_ key: String, string value: String) {
        self.key(key)
        Self.appendQuoted(value, to: &text)
    }

    /// A member whose value is `value` or `null`.
    public mutating func member(_ key: String, stringOrNull value: String?) {
        if let value { member(key, string: value) } else { member(key, json: "null") }
    }

    /// A member whose value is the integer `value`.
    public mutating func member(_ key: String, integer value: Int) {
        member(key, json: String(value))
    }

    /// A member whose value is `true` or `false`.
    public mutating func member(_ key: String, bool value: Bool) {
        member(key, json: value ? "true" : "false")
    }

    /// A member whose value is `json`, already JSON text, embedded as it is (not parsed, not
    /// checked: the caller vouches for it).
    public mutating func member(_ key: String, json: String) {
        self.key(key)
        text.append(json)
    }

    private mutating func key(_ key: String) {
        precondition(depth > 0, "a member outside an object")
        let bit: UInt64 = 1 << UInt64(depth - 1)
        if hasMembers & bit != 0 { text.append(",") }
        hasMembers |= bit
        #if DEBUG
        if let last = lastKeys[depth - 1] {
            assert(last.utf8.lexicographicallyPrecedes(key.utf8), "keys must be written sorted: \(last) before \(key)")
        }
        lastKeys[depth - 1] = key
        #endif
        Self.appendQuoted(key, to: &text)
        text.append(":")
    }

    // MARK: Strings

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped
    /// (`\n`, `\r`, `\t`, else `\u00XX`); everything else, `/` and non-ASCII included, as it is.
    public static func quoted(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &out)
        return out
    }

    /// Appends `text` as a JSON string literal (see `quoted(_:)`) to `out`.
    public static func appendQuoted(_ text: String, to out: inout String) {
        out.append("\"")
        // The common case: nothing to escape, appended in one piece.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            out.append(text)
            out.append("\"")
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }
}

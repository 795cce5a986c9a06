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
    /// The JSON written so far, as UTF-8 (one buffer: appending to it is cheaper than to a
    /// `String`, piece by piece).
    private var bytes: [UInt8] = []
    /// How many objects and arrays are open (at most 64).
    private var depth = 0
    /// Bit `d`: the open object or array at depth `d` has a member or element (a comma goes
    /// before the next).
    private var hasMembers: UInt64 = 0
    /// Bit `d`: what is open at depth `d` is an array (of objects), not an object.
    private var arrays: UInt64 = 0
    #if DEBUG
    /// Per open object, its last key: the next must sort after it.
    private var lastKeys: [String?] = []
    #endif

    /// An empty writer; `capacity` bytes are reserved.
    public init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    /// The JSON written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Opens an object: at the top, as the value of the member whose key was just written, or as
    /// the next element of the open array.
    public mutating func beginObject() {
        if depth > 0, arrays & (1 << UInt64(depth - 1)) != 0 { separateElement() }
        open(UInt8(ascii: "{"), array: false)
    }

    /// Opens an array as the value of member `key`; its elements are objects (`beginObject()`).
    public mutating func beginArray(_ key: String) {
        self.key(key)
        open(UInt8(ascii: "["), array: true)
    }

    /// Closes the innermost open array.
    public mutating func endArray() {
        precondition(depth > 0 && arrays & (1 << UInt64(depth - 1)) != 0, "endArray without beginArray")
        depth -= 1
        #if DEBUG
        lastKeys.removeLast()
        #endif
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func open(_ bracket: UInt8, array: Bool) {
        precondition(depth < 64, "objects and arrays nested more than 64 deep")
        bytes.append(bracket)
        let bit: UInt64 = 1 << UInt64(depth)
        hasMembers &= ~bit
        if array { arrays |= bit } else { arrays &= ~bit }
        depth += 1
        #if DEBUG
        lastKeys.append(nil)
        #endif
    }

    /// A comma before every element of the open array but its first.
    private mutating func separateElement() {
        let bit: UInt64 = 1 << UInt64(depth - 1)
        if hasMembers & bit != 0 { bytes.append(UInt8(ascii: ",")) }
        hasMembers |= bit
    }

    /// Opens an object as the value of member `key`.
    public mutating func beginObject(_ key: String) {
        self.key(key)
        beginObject()
    }

    /// Closes the innermost open object.
    public mutating func endObject() {
        precondition(depth > 0 && arrays & (1 << UInt64(depth - 1)) == 0, "endObject without beginObject")
        depth -= 1
        #if DEBUG
        lastKeys.removeLast()
        #endif
        bytes.append(UInt8(ascii: "}"))
    }

    /// A member whose value is `value`, quoted.
    public mutating func member(_ key: String, string value: String) {
        self.key(key)
        Self.appendQuoted(value, to: &bytes)
    }

    /// A member whose value is `value` or `null`.
    public mutating func member(_ key: String, stringOrNull value: String?) {
        if let value { member(key, string: value) } else { member(key, json: "null") }
    }

    /// A member whose value is the integer `value`.
    public mutating func member(_ key: String, integer value: Int) {
        member(key, json: String(value))
    }

    /// A member whose value is the integer `value` or `null`.
    public mutating func member(_ key: String, integerOrNull value: Int?) {
        if let value { member(key, integer: value) } else { member(key, json: "null") }
    }

    /// A member whose value is `true` or `false`.
    public mutating func member(_ key: String, bool value: Bool) {
        member(key, json: value ? "true" : "false")
    }

    /// A member whose value is `json`, already JSON text, embedded as it is (not parsed, not
    /// checked: the caller vouches for it).
    public mutating func member(_ key: String, json: String) {
        self.key(key)
        Self.append(json, to: &bytes)
    }

    private mutating func key(_ key: String) {
        precondition(depth > 0, "a member outside an object")
        let bit: UInt64 = 1 << UInt64(depth - 1)
        precondition(arrays & bit == 0, "a member inside an array")
        if hasMembers & bit != 0 { bytes.append(UInt8(ascii: ",")) }
        hasMembers |= bit
        #if DEBUG
        if let last = lastKeys[depth - 1] {
            assert(last.utf8.lexicographicallyPrecedes(key.utf8), "keys must be written sorted: \(last) before \(key)")
        }
        lastKeys[depth - 1] = key
        #endif
        Self.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    // MARK: Strings

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped
    /// (`\n`, `\r`, `\t`, else `\u00XX`); everything else, `/` and non-ASCII included, as it is.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal to `out`. Byte by byte: only ASCII needs escaping,
    /// and no byte of a multi-byte UTF-8 sequence is ASCII.
    private static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let plain = text.utf8.withContiguousStorageIfAvailable { !$0.contains(where: needsEscape) }
            ?? !text.utf8.contains(where: needsEscape)
        if plain {
            append(text, to: &out)
        } else {
            for byte in text.utf8 {
                guard needsEscape(byte) else {
                    out.append(byte)
                    continue
                }
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case UInt8(ascii: "\n"): out.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): out.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Appends `text`'s UTF-8 to `out` (one copy for a native string).
    private static func append(_ text: String, to out: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
            out.append(contentsOf: text.utf8)
        }
    }
}

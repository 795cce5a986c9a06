import Foundation
/// HTTP header fields: ordered, repeatable, looked up case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were added, names as written.
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of the field `name`, if present.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of the field `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// The comma-separated tokens of every `name` field, lowercased and trimmed
    /// (`Connection: keep-alive, Upgrade` → `["keep-alive", "upgrade"]`).
    public func tokens(for name: String) -> [String] {
        values(for: name).flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }.filter { !$0.isEmpty }
    }

    /// Whether any `name` field lists `token` (case-insensitive). Compares bytes, allocates
    /// nothing (it runs for every request: `Connection`, `Expect`).
    public func contains(_ name: String, token: String) -> Bool {
        guard !token.isEmpty else { return false }
        for field in fields where field.name.caseInsensitiveEquals(name) {
            if Self.list(field.value, contains: token) { return true }
        }
        return false
    }

    /// Whether the comma-separated `list` has an element equal to `token`, ignoring ASCII case
    /// and the optional whitespace around elements.
    private static func list(_ list: String, contains token: String) -> Bool {
        let bytes = list.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let end = bytes[index...].firstIndex(of: 0x2C) ?? bytes.endIndex
            var start = index
            var stop = end
            while start < stop, HTTPSyntax.isWhitespace(bytes[start]) { start = bytes.index(after: start) }
            while stop > start, HTTPSyntax.isWhitespace(bytes[bytes.index(before: stop)]) { stop = bytes.index(before: stop) }
            if asciiCaseInsensitiveEquals(bytes[start..<stop], token.utf8) { return true }
            index = end == bytes.endIndex ? end : bytes.index(after: end)
        }
        return false
    }

    /// The parser's refill of the previous request's storage: field `index` (at most `count`)
    /// becomes `(name, value)`, appended when `index == count`.
    mutating func setField(at index: Int, name: String, value: String) {
        if index < fields.count { fields[index] = (name, value) } else { fields.append((name, value)) }
    }

    /// Drops the fields from `count` on, keeping the storage (the end of the parser's refill).
    mutating func truncate(to count: Int) {
        if count < fields.count { fields.removeSubrange(count...) }
    }

    /// Appends a field, keeping any existing ones of that name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name, value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// ASCII case-insensitive comparison, as HTTP field names and tokens use: byte by byte,
    /// without lowercased copies.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        asciiCaseInsensitiveEquals(utf8, other.utf8)
    }
}

/// Whether two byte sequences are equal ignoring the case of ASCII letters.
@inline(__always)
func asciiCaseInsensitiveEquals<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
    guard a.count == b.count else { return false }
    return a.elementsEqual(b) { x, y in
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
    }
}


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

    /// Whether any `name` field lists `token` (case-insensitive).
    public func contains(_ name: String, token: String) -> Bool {
        tokens(for: name).contains(token.lowercased())
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
    /// ASCII case-insensitive comparison, as HTTP field names and tokens use.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}


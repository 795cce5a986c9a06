import Foundation

/// How every pipeline's server → client events are written: one JSON object per text frame,
/// compact, keys sorted, slashes unescaped.
enum EventJSON {
    /// `value` as that JSON.
    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structs cannot fail.
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }
}

/// A constant in a definition (prepend's `value`): a JSON string, number or boolean.
public enum ComposedValue: Equatable, Hashable, Sendable {
    case string(String)
    /// Always finite.
    case number(Double)
    case boolean(Bool)

    /// The kind of value it is.
    public var kind: ValueKind {
        switch self {
        case .string: .string
        case .number: .number
        case .boolean: .boolean
        }
    }

    /// The value as JSON text: a whole number without a fraction (`3`, not `3.0`).
    public var json: String {
        switch self {
        case .string(let text): JSONWriter.quoted(text)
        case .boolean(let value): value ? "true" : "false"
        case .number(let value): Self.json(value)
        }
    }

    /// `value` as a JSON number (the shortest text that reads back as the same `Double`).
    public static func json(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 0x1p53 { return String(Int(value)) }
        return "\(value)"
    }
}

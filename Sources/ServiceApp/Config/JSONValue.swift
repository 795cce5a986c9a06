import Configuration

/// A JSON value as read from the config file (before it is checked against a setting's type).
enum JSONValue: Sendable, Equatable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The value as the setting's `type` needs it, or `nil` when it is of another type: strictly,
    /// unlike swift-configuration's own JSON snapshot (which reads `null` as absent and `true` as
    /// `1`). Integers are whole numbers; a string list is an array of strings only.
    func content(as type: ConfigType) -> ConfigContent? {
        switch (type, self) {
        case (.string, .string(let text)): return .string(text)
        case (.int, .number(let number)):
            return number.rounded() == number && abs(number) < 1e15 ? .int(Int(number)) : nil
        case (.double, .number(let number)): return .double(number)
        case (.bool, .bool(let value)): return .bool(value)
        case (.stringArray, .array(let values)):
            var texts: [String] = []
            for value in values {
                guard case .string(let text) = value else { return nil }
                texts.append(text)
            }
            return .stringArray(texts)
        default: return nil
        }
    }

    /// The value as an error message shows it: `70000`, `"abc"`, `true`, `null`, `[…]`, `{…}`.
    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .number(let value):
            value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): "\"\(value)\""
        case .array: "[…]"
        case .object: "{…}"
        }
    }
}

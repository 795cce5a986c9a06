/// One extension offer from `Sec-WebSocket-Extensions` (RFC 6455 section 9.1):
/// `name; param; param=value; param="quoted"`.
public struct WebSocketExtensionOffer: Sendable, Equatable {
    /// The extension token, lowercased.
    public var name: String
    /// The parameters in order, names lowercased, quoted values unquoted.
    public var parameters: [Parameter]
    /// Whether the offer broke the header syntax (it should then be declined).
    public var isMalformed: Bool

    /// One extension parameter.
    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// Parses every offer in the given header field values, in order.
    public static func parse(_ headerValues: [String]) -> [WebSocketExtensionOffer] {
        var offers: [WebSocketExtensionOffer] = []
        for value in headerValues {
            for element in split(value, on: ",") {
                let segments = split(element, on: ";").map(trim)
                guard let first = segments.first, !(segments.count == 1 && first.isEmpty) else { continue }
                var offer = WebSocketExtensionOffer(name: first.lowercased(), parameters: [], isMalformed: !isToken(first))
                for segment in segments.dropFirst() {
                    if let parameter = parseParameter(segment) {
                        offer.parameters.append(parameter)
                    } else {
                        offer.isMalformed = true
                    }
                }
                offers.append(offer)
            }
        }
        return offers
    }

    private static func parseParameter(_ segment: String) -> Parameter? {
        guard let equals = segment.firstIndex(of: "=") else {
            return isToken(segment) ? Parameter(name: segment.lowercased(), value: nil) : nil
        }
        let name = trim(String(segment[..<equals]))
        var value = trim(String(segment[segment.index(after: equals)...]))
        guard isToken(name) else { return nil }
        if value.hasPrefix("\"") {
            guard value.count >= 2, value.hasSuffix("\""), let unquoted = unquote(value) else { return nil }
            value = unquoted
        }
        guard isToken(value) else { return nil }
        return Parameter(name: name.lowercased(), value: value)
    }

    /// Removes the quotes and backslash escapes of a quoted-string.
    private static func unquote(_ quoted: String) -> String? {
        var result = ""
        var escaped = false
        for character in quoted.dropFirst().dropLast() {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return nil
            } else {
                result.append(character)
            }
        }
        return escaped ? nil : result
    }

    /// Splits on `separator` outside quoted strings.
    private static func split(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        for character in text {
            if inQuotes {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inQuotes = false }
                current.append(character)
            } else if character == "\"" {
                inQuotes = true
                current.append(character)
            } else if character == separator {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    private static func trim(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }

    /// Whether `text` is an RFC 7230 token.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "a") ... UInt8(ascii: "z"),
                 UInt8(ascii: "A") ... UInt8(ascii: "Z"):
                return true
            default:
                return "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}

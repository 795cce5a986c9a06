/// Reads the top level of one JSON object (or array) in a single pass over its UTF-8 bytes, checking the
/// whole text as it goes: each member's key and a value that is either read (a string, a
/// literal) or located (a number, an object or an array, whose exact bytes the caller may take
/// as they are, without decoding and encoding them again).
///
/// RFC 8259 as Foundation's `JSONDecoder` reads it: no comments, no leading zeros, one trailing
/// comma allowed in a non-empty object or array (Foundation's one leniency), escapes checked (a `\u` surrogate must be paired), no raw control characters in
/// strings, whitespace only around tokens; a key given twice is kept twice (readers take the
/// first, as Foundation does). One difference: a number is checked against the grammar only,
/// where Foundation also refuses one beyond `Double`'s range (`1e400`). Objects and arrays may
/// nest `maxDepth` deep, the object itself counting as the first level; deeper text is refused
/// without recursion.
struct JSONScanner {
    /// A member's value.
    enum Value: Equatable {
        case string(String)
        /// A number: its bytes in the text.
        case number(Range<Int>)
        case bool(Bool)
        case null
        /// An object or an array: its bytes in the text, brackets included.
        case object(Range<Int>)
        case array(Range<Int>)
    }

    /// One member of the object.
    struct Member {
        let key: String
        let value: Value
        /// The member's bytes in the text, from its key's opening quote to its value's end.
        let range: Range<Int>
    }

    /// The text is not one JSON object within the depth limit.
    struct Malformed: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var index = 0
    /// The open containers below the top-level object, one bit each (1 for an object): the
    /// first 64 levels inline, deeper ones (rare) in `deeperKinds`, so that a frame costs no
    /// allocation for them.
    private var kinds: UInt64 = 0
    private var deeperKinds: [UInt64] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// The members of the object that `bytes` hold (whitespace allowed around it), in order.
    static func members(of bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 512) throws(Malformed) -> [Member] {
        var scanner = JSONScanner(bytes, maxDepth: maxDepth)
        return try scanner.object()
    }

    /// The elements of the array that `bytes` hold (whitespace allowed around it), in order; nil
    /// as soon as there are more than `limit`, without reading the rest.
    static func elements(of bytes: UnsafeBufferPointer<UInt8>, limit: Int, maxDepth: Int = 512) throws(Malformed) -> [Value]? {
        var scanner = JSONScanner(bytes, maxDepth: maxDepth)
        scanner.skipWhitespace()
        try scanner.expect(UInt8(ascii: "["))
        var values: [Value] = []
        scanner.skipWhitespace()
        if scanner.peek() == UInt8(ascii: "]") {
            scanner.index += 1
        } else {
            while true {
                guard values.count < limit else { return nil }
                scanner.skipWhitespace()
                values.append(try scanner.value())
                scanner.skipWhitespace()
                guard scanner.peek() == UInt8(ascii: ",") else {
                    try scanner.expect(UInt8(ascii: "]"))
                    break
                }
                scanner.index += 1
                scanner.skipWhitespace()
                // A trailing comma, as Foundation's decoder allows.
                if scanner.peek() == UInt8(ascii: "]") {
                    scanner.index += 1
                    break
                }
            }
        }
        scanner.skipWhitespace()
        guard scanner.index == bytes.count else { throw Malformed() }
        return values
    }

    // MARK: The top level

    private mutating func object() throws(Malformed) -> [Member] {
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
        var members: [Member] = []
        members.reserveCapacity(6)
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                let start = index
                guard peek() == UInt8(ascii: "\"") else { throw Malformed() }
                let key = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                let value = try value()
                members.append(Member(key: key, value: value, range: start ..< index))
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    // A trailing comma, as Foundation's decoder allows.
                    if peek() == UInt8(ascii: "}") {
                        index += 1
                        break
                    }
                    continue
                }
                try expect(UInt8(ascii: "}"))
                break
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw Malformed() }
        return members
    }

    private mutating func value() throws(Malformed) -> Value {
        let start = index
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"):
            try skipContainer()
            return .object(start ..< index)
        case UInt8(ascii: "["):
            try skipContainer()
            return .array(start ..< index)
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            try skipNumber()
            return .number(start ..< index)
        }
    }

    // MARK: Nested values, without recursion

    private enum State { case value, open, key, after }

    /// Checks the object or array at `index`, and everything in it, iteratively.
    private mutating func skipContainer() throws(Malformed) {
        var open = 0
        var state = State.open
        while true {
            switch state {
            case .value:
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: "{"), UInt8(ascii: "["): state = .open
                case UInt8(ascii: "\""): try skipString(); state = .after
                case UInt8(ascii: "t"): try literal("true"); state = .after
                case UInt8(ascii: "f"): try literal("false"); state = .after
                case UInt8(ascii: "n"): try literal("null"); state = .after
                default: try skipNumber(); state = .after
                }
            case .open:
                let isObject = bytes[index] == UInt8(ascii: "{")
                // The top-level object is level 1, this one level open + 2.
                guard open + 2 <= maxDepth else { throw Malformed() }
                setKind(at: open, isObject: isObject)
                open += 1
                index += 1
                skipWhitespace()
                if peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    open -= 1
                    if open == 0 { return }
                    state = .after
                } else {
                    state = isObject ? .key : .value
                }
            case .key:
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw Malformed() }
                try skipString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                state = .value
            case .after:
                skipWhitespace()
                let isObject = kind(at: open - 1)
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                var byte = peek()
                if byte == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    byte = peek()
                    // Unless it is a trailing comma (Foundation's decoder allows one), what follows is another member.
                    if byte != closer {
                        state = isObject ? .key : .value
                        continue
                    }
                }
                if byte == closer {
                    index += 1
                    open -= 1
                    if open == 0 { return }
                } else {
                    throw Malformed()
                }
            }
        }
    }

    private mutating func setKind(at level: Int, isObject: Bool) {
        let bit: UInt64 = 1 << UInt64(level % 64)
        guard level >= 64 else {
            if isObject { kinds |= bit } else { kinds &= ~bit }
            return
        }
        let word = level / 64 - 1
        if word >= deeperKinds.count { deeperKinds.append(contentsOf: repeatElement(0, count: word - deeperKinds.count + 1)) }
        if isObject { deeperKinds[word] |= bit } else { deeperKinds[word] &= ~bit }
    }

    private func kind(at level: Int) -> Bool {
        let word = level < 64 ? kinds : deeperKinds[level / 64 - 1]
        return word & (1 << UInt64(level % 64)) != 0
    }

    // MARK: Tokens

    /// The byte at `index`, or 0 at the end (0 is never valid there).
    private func peek() -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    private mutating func expect(_ byte: UInt8) throws(Malformed) {
        guard peek() == byte else { throw Malformed() }
        index += 1
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws(Malformed) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw Malformed() }
        for offset in 0 ..< count where bytes[index + offset] != word.utf8Start[offset] { throw Malformed() }
        index += count
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func skipNumber() throws(Malformed) {
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() else { throw Malformed() }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard digits() else { throw Malformed() }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() else { throw Malformed() }
        }
    }

    /// Skips digits; whether there was one.
    private mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index > start
    }

    // MARK: Strings

    /// Checks the string at `index` and skips it.
    private mutating func skipString() throws(Malformed) {
        _ = try stringBody()
    }

    /// Reads the string at `index`.
    private mutating func string() throws(Malformed) -> String {
        let start = index + 1
        let escaped = try stringBody()
        let body = UnsafeBufferPointer(rebasing: bytes[start ..< index - 1])
        return escaped ? Self.unescape(body) : String(decoding: body, as: UTF8.self)
    }

    /// Checks the string at `index` and skips it; whether it has escapes.
    private mutating func stringBody() throws(Malformed) -> Bool {
        index += 1
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return escaped
            }
            guard byte >= 0x20 else { throw Malformed() }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try skipEscape()
            } else {
                index += 1
            }
        }
        throw Malformed()
    }

    /// Checks the escape at `index` (a backslash) and skips it; a high surrogate must be followed
    /// by a low one, and a low one must follow a high one.
    private mutating func skipEscape() throws(Malformed) {
        index += 1
        switch peek() {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 1
        case UInt8(ascii: "u"):
            let unit = try hex4(at: index + 1)
            index += 5
            if (0xDC00 ... 0xDFFF).contains(unit) { throw Malformed() }
            if (0xD800 ... 0xDBFF).contains(unit) {
                guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
                      (0xDC00 ... 0xDFFF).contains(try hex4(at: index + 2)) else { throw Malformed() }
                index += 6
            }
        default:
            throw Malformed()
        }
    }

    private func hex4(at start: Int) throws(Malformed) -> UInt16 {
        guard start + 4 <= bytes.count else { throw Malformed() }
        var value: UInt16 = 0
        for byte in bytes[start ..< start + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Malformed()
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// The text of a checked string body with escapes.
    private static func unescape(_ body: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var index = 0
        func hex(_ start: Int) -> UInt32 {
            body[start ..< start + 4].reduce(0) { value, byte in
                let digit: UInt8 = byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
                return value << 4 | UInt32(digit)
            }
        }
        while index < body.count {
            let byte = body[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let kind = body[index + 1]
            index += 2
            switch kind {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex(index)
                index += 4
                if (0xD800 ... 0xDBFF).contains(scalar) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex(index + 2) - 0xDC00)
                    index += 6
                }
                // Checked while scanning: never an unpaired surrogate.
                out.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
            default: out.append(kind)  // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Incremental UTF-8 validator (RFC 3629): feed bytes in pieces split anywhere; it fails as
/// soon as a byte makes the sequence certainly invalid (overlongs, surrogates, code points
/// above U+10FFFF, stray continuation bytes), not only at the end.
public struct UTF8Validator: Sendable {
    /// Continuation bytes still expected for the current scalar.
    private var pending: UInt8 = 0
    /// The allowed range of the next continuation byte.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    /// Set once an invalid byte was seen; sticky.
    public private(set) var hasFailed = false

    public init() {}

    /// Whether the bytes so far end on a scalar boundary (and none was invalid).
    public var isComplete: Bool { pending == 0 && !hasFailed }

    /// Starts over for a new text.
    public mutating func reset() { self = UTF8Validator() }

    /// Validates the next bytes; returns false as soon as the input is certainly invalid.
    @discardableResult
    public mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !hasFailed else { return false }
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            if pending == 0 {
                // Fast path: skip ASCII eight bytes at a time.
                while index &+ 8 <= count,
                      base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index &+= 8
                }
                guard index < count else { break }
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index &+= 1
                if byte < 0x80 { continue }
                if !start(byte) { hasFailed = true; return false }
            } else {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index &+= 1
                guard byte >= lower, byte <= upper else { hasFailed = true; return false }
                pending &-= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        return true
    }

    /// Validates the next bytes; returns false as soon as the input is certainly invalid.
    @discardableResult
    public mutating func validate(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { validate($0) }
    }

    /// Validates a complete byte sequence.
    public static func isValid(_ bytes: [UInt8]) -> Bool {
        var validator = UTF8Validator()
        return validator.validate(bytes) && validator.isComplete
    }

    /// Sets the expectations after a lead byte; false if it can start no scalar.
    private mutating func start(_ byte: UInt8) -> Bool {
        switch byte {
        case 0xC2 ... 0xDF: pending = 1
        case 0xE0: pending = 2; lower = 0xA0 // no overlongs
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: pending = 2
        case 0xED: pending = 2; upper = 0x9F // no surrogates
        case 0xF0: pending = 3; lower = 0x90 // no overlongs
        case 0xF1 ... 0xF3: pending = 3
        case 0xF4: pending = 3; upper = 0x8F // not above U+10FFFF
        default: return false // continuation byte, C0/C1 overlongs, F5-FF
        }
        return true
    }
}

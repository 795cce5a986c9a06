/// The top-level members of one frame as `JSONScanner` read them, with the frame's bytes to
/// take located values from. Lives only while those bytes do (inside `String.withUTF8`).
struct MuxFrameFields {
    private let members: [JSONScanner.Member]
    private let bytes: UnsafeBufferPointer<UInt8>

    init(_ members: [JSONScanner.Member], in bytes: UnsafeBufferPointer<UInt8>) {
        self.members = members
        self.bytes = bytes
    }

    /// The value of member `key`; with a key given twice, the first one (as Foundation's decoder
    /// reads a dictionary).
    subscript(key: String) -> JSONScanner.Value? {
        members.first { $0.key == key }?.value
    }

    /// The members, in the order of the text.
    var all: [JSONScanner.Member] { members }

    /// The text of `range` of the frame, exactly as it came.
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The bytes of `range`.
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// Member `key` as a demand: `absent` when there is none, `"unlimited"`, or an integer from
    /// `minimum` to 2^63 − 1; nil for anything else.
    func demand(_ key: String, minimum: Int, absent: MuxDemand?) -> MuxDemand? {
        switch self[key] {
        case nil: return absent
        case .string("unlimited")?: return .unlimited
        case .number(let range)?:
            guard let count = Self.integer(bytes(range)), count >= minimum else { return nil }
            return .max(count)
        default: return nil
        }
    }

    /// A JSON number as an exact `Int`: an integer literal digit by digit (so 2^63 − 1 is told
    /// from 2^63), any other form (`8.0`, `1e3`) when its value is a whole number below 2^63.
    static func integer(_ number: UnsafeBufferPointer<UInt8>) -> Int? {
        let negative = number.first == UInt8(ascii: "-")
        let digits = number.dropFirst(negative ? 1 : 0)
        if digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) {
            var value = 0
            for digit in digits {
                let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                guard !overflow, !overflow2 else { return nil }
                value = sum
            }
            return negative ? -value : value
        }
        guard let double = Double(String(decoding: number, as: UTF8.self)),
              double.rounded() == double, double > -0x1p63, double < 0x1p63 else { return nil }
        return Int(double)
    }
}

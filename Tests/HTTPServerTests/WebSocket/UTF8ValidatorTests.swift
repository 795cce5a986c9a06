import HTTPServer
import XCTest

final class UTF8ValidatorTests: XCTestCase {
    private let valid: [[UInt8]] = [
        [],
        Array("hello, world".utf8),
        Array("κόσμε".utf8),
        Array("Hello-µ@ßöäüàá-UTF-8!!".utf8),
        [0x7F], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
        [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xEF, 0xBF, 0xBE],
        Array(String(repeating: "aé€😀", count: 50).utf8),
    ]

    private let invalid: [[UInt8]] = [
        [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], // stray continuation, 2-byte overlongs
        [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], // 3-byte overlongs
        [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], // 4-byte overlongs
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], // surrogates
        [0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80], // surrogate pair
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF7, 0xBF, 0xBF, 0xBF], // > U+10FFFF
        [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFC, 0x84, 0x80, 0x80, 0x80, 0x80], [0xFE], [0xFF],
        [0xC2, 0x41], [0xE1, 0x80, 0x41], [0x61, 0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65],
        Array("abcdefghij".utf8) + [0x80] + Array("klmnopqrstuv".utf8), // invalid byte after the ASCII fast path
    ]

    private let truncated: [[UInt8]] = [[0xC2], [0xE0, 0xA0], [0xF0, 0x90, 0x80], [0xF4], Array("abc".utf8) + [0xE2, 0x82]]

    func testValidSequences() {
        for bytes in valid { XCTAssertTrue(UTF8Validator.isValid(bytes), "\(bytes)") }
    }

    func testInvalidSequences() {
        for bytes in invalid { XCTAssertFalse(UTF8Validator.isValid(bytes), "\(bytes)") }
        for bytes in truncated { XCTAssertFalse(UTF8Validator.isValid(bytes), "\(bytes)") }
    }

    func testValidAcrossEverySplit() {
        for bytes in valid {
            for split in 0 ... bytes.count {
                var validator = UTF8Validator()
                XCTAssertTrue(validator.validate(Array(bytes[..<split])))
                XCTAssertTrue(validator.validate(Array(bytes[split...])))
                XCTAssertTrue(validator.isComplete)
            }
        }
    }

    func testTruncatedAtABoundaryIsIncompleteButNotFailed() {
        var validator = UTF8Validator()
        XCTAssertTrue(validator.validate([0xF0, 0x9F]))
        XCTAssertFalse(validator.isComplete)
        XCTAssertFalse(validator.hasFailed)
        XCTAssertTrue(validator.validate([0x98, 0x80]))
        XCTAssertTrue(validator.isComplete)
    }

    func testFailsFastAtTheFirstCertainlyInvalidByte() {
        // Each prefix is already impossible to complete; the validator must say so at once.
        for prefix: [UInt8] in [[0xED, 0xA0], [0xF4, 0x90], [0xE0, 0x80], [0xF0, 0x80], [0xC0], [0xF5], [0xC2, 0x20]] {
            var validator = UTF8Validator()
            XCTAssertFalse(validator.validate(prefix), "\(prefix)")
            XCTAssertTrue(validator.hasFailed)
        }
        var validator = UTF8Validator()
        XCTAssertFalse(validator.validate([0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xF4, 0x90, 0x80, 0x80]))
        XCTAssertFalse(validator.validate(Array("fine".utf8)), "failure is sticky")
    }

    func testMatchesStandardLibraryOnAllTwoByteInputs() {
        for first in 0 ... 255 {
            for second in 0 ... 255 {
                let bytes = [UInt8(first), UInt8(second)]
                let expected = String(validating: bytes, as: UTF8.self) != nil
                XCTAssertEqual(UTF8Validator.isValid(bytes), expected, "\(bytes)")
            }
        }
    }

    func testMatchesStandardLibraryOnThreeByteSequences() {
        for lead in 0xE0 ... 0xF4 {
            for second in stride(from: 0x70, through: 0xC0, by: 1) {
                for third: UInt8 in [0x7F, 0x80, 0xBF, 0xC0] {
                    let bytes = [UInt8(lead), UInt8(second), third, 0x80]
                    let expected = String(validating: bytes, as: UTF8.self) != nil
                    XCTAssertEqual(UTF8Validator.isValid(bytes), expected, "\(bytes)")
                }
            }
        }
    }
}

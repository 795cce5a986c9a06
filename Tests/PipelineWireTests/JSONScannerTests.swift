import Foundation
import XCTest

@testable import PipelineWire

/// The codec's scanner accepts exactly the objects Foundation's `JSONDecoder` accepts (numbers
/// beyond `Double`'s range aside), as the multiplexer decoded frames before the codec and as the
/// pipelines decode their messages: handing a message on unparsed lets nothing through that the
/// old decode refused, and refuses nothing it took.
final class JSONScannerTests: XCTestCase {
    private func scanned(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { (try? JSONScanner.members(of: $0)) != nil }
    }

    private func foundation(_ text: String) -> Bool {
        (try? JSONDecoder().decode([String: AnyJSON].self, from: Data(text.utf8))) != nil
    }

    func testAgreesWithFoundationOnTrickyObjects() {
        let texts = [
            "{}", " {} ", "{ }", #"{"a":1}"#, #"{"a":-0}"#, #"{"a":-0.5e-3}"#, #"{"a":1E+2}"#, #"{"a":01}"#, #"{"a":1.}"#,
            #"{"a":.5}"#, #"{"a":+1}"#, #"{"a":-}"#, #"{"a":1e}"#, #"{"a":[]}"#, #"{"a":[1,]}"#, #"{"a":[,1]}"#, #"{"a":{}}"#,
            #"{"a":{"b":}}"#, #"{"a":{"b"}}"#, #"{"a":true,"b":false,"c":null}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":True}"#,
            #"{"a":"\u00e9\ud83d\ude00\n\"\\\/\b\f\r\t"}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#, #"{"a":"\ud800\u0041"}"#,
            #"{"a":"\x"}"#, #"{"a":"\u12"}"#, #"{"a":"\u12G4"}"#, "{\"a\":\"x\ty\"}", "{\"a\":\"x\u{7f}y\"}", #"{"a":"é"}"#,
            #"{"a":1,}"#, #"{,"a":1}"#, #"{"a" 1}"#, #"{a:1}"#, #"{'a':1}"#, #"{"a":1}}"#, #"{"a":1} x"#, #"{"a":1}{}"#,
            "[1]", "\"a\"", "1", "", "{", #"{"a":[1,[2,{"b":[3]}]]}"#, #"{"a":[1 2]}"#, #"{"a":{"b":1 "c":2}}"#,
            #"{"a":[,]}"#, "{,}", #"{"a":1,,}"#, #"{"a":[1,,]}"#, #"{"a":{"b":1,}}"#, #"{"a":[1,] }"#, #"{"a":1 , }"#, #"{"a":[1, ]}"#,
            "{\"a\":1}\n\r\t ", "{\u{00a0}}", #"{"":1}"#, #"{"a":"b","a":"c"}"#, #"{"a":/*c*/1}"#, #"{"a":NaN}"#,
        ]
        for text in texts {
            XCTAssertEqual(scanned(text), foundation(text), text)
        }
    }

    /// Objects and arrays alternating far past 64 levels (where the scanner's record of them
    /// leaves its inline word): each closer must match its opener.
    func testDeepMixedNestingIsCheckedLevelByLevel() {
        let levels = 300
        let open = (0 ..< levels).map { $0.isMultiple(of: 2) ? "[" : #"{"a":"# }.joined()
        let close = (0 ..< levels).reversed().map { $0.isMultiple(of: 2) ? "]" : "}" }.joined()
        let valid = #"{"x":"# + open + "1" + close + "}"
        XCTAssertTrue(scanned(valid))
        XCTAssertEqual(scanned(valid), foundation(valid))
        var swapped = Array(close)
        swapped.swapAt(200, 201)
        let invalid = #"{"x":"# + open + "1" + String(swapped) + "}"
        XCTAssertFalse(scanned(invalid), "a closer of the wrong kind at level 100")
    }

    func testKeepsEachMembersPlaceAndValue() throws {
        var text = #"{ "s" : "x\"y" , "n":-1.5e3,"t":true,"z":null,"o":{"a":[1,{}]},"a":[ ] }"#
        let members = try text.withUTF8 { bytes in
            try JSONScanner.members(of: bytes).map { member in
                (member.key, member.value, String(decoding: UnsafeBufferPointer(rebasing: bytes[member.range]), as: UTF8.self))
            }
        }
        XCTAssertEqual(members.map(\.0), ["s", "n", "t", "z", "o", "a"])
        XCTAssertEqual(members[0].1, .string("x\"y"))
        XCTAssertEqual(members[2].1, .bool(true))
        XCTAssertEqual(members[3].1, .null)
        XCTAssertEqual(members.map(\.2), [#""s" : "x\"y""#, #""n":-1.5e3"#, #""t":true"#, #""z":null"#, #""o":{"a":[1,{}]}"#, #""a":[ ]"#])
    }
}

/// Any JSON value, decoded as the multiplexer's frames were before the codec (ServiceApp's
/// `JSONValue`).
private indirect enum AnyJSON: Decodable {
    case null, bool(Bool), number(Double), string(String), array([AnyJSON]), object([String: AnyJSON])

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
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }
}

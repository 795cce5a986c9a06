import Foundation
import XCTest

@testable import PipelineWire

/// The project's one JSON writer and escaper.
final class JSONWriterTests: XCTestCase {
    func testQuotedEscapesWhatJSONNeedsAndNothingElse() throws {
        XCTAssertEqual(JSONWriter.quoted("plain é 👍🏽 / <>"), #""plain é 👍🏽 / <>""#)
        XCTAssertEqual(JSONWriter.quoted("q\"b\\n\nr\rt\tnul\u{0}us\u{1f}"), #""q\"b\\n\nr\rt\tnul\u0000us\u001f""#)
        XCTAssertEqual(JSONWriter.quoted(""), #""""#)
        // Every scalar below 0x80 and a few beyond read back as themselves.
        let all = String(String.UnicodeScalarView((0 ..< 0x80).compactMap(Unicode.Scalar.init) + ["é", "\u{2028}", "👍"]))
        let decoded = try JSONDecoder().decode(String.self, from: Data(JSONWriter.quoted(all).utf8))
        XCTAssertEqual(decoded, all)
    }

    func testWritesObjectsMemberByMember() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("a", bool: true)
        writer.beginObject("b")
        writer.member("c", integer: -3)
        writer.member("d", stringOrNull: nil)
        writer.endObject()
        writer.member("e", json: "[1,2]")
        writer.member("f", string: "x\"y")
        writer.endObject()
        XCTAssertEqual(writer.text, #"{"a":true,"b":{"c":-3,"d":null},"e":[1,2],"f":"x\"y"}"#)
        var empty = JSONWriter()
        empty.beginObject()
        empty.beginObject("a")
        empty.endObject()
        empty.endObject()
        XCTAssertEqual(empty.text, #"{"a":{}}"#)
    }

    func testWritesArraysOfObjects() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.beginArray("a")
        writer.endArray()
        writer.beginArray("b")
        for index in 0..<3 {
            writer.beginObject()
            writer.member("i", integer: index)
            writer.beginArray("j")
            writer.beginObject()
            writer.endObject()
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.member("c", bool: false)
        writer.endObject()
        XCTAssertEqual(writer.text, #"{"a":[],"b":[{"i":0,"j":[{}]},{"i":1,"j":[{}]},{"i":2,"j":[{}]}],"c":false}"#)
    }
}

import PipelineWire
@testable import ServiceApp
import XCTest

final class ClientFrameTests: XCTestCase {
    func testJSONInputCarriesTheValue() {
        XCTAssertEqual(ClientFrame(text: #"{"type":"input","value":"hec"}"#), .input("hec"))
        XCTAssertEqual(ClientFrame(text: #"{"type":"input","value":""}"#), .input(""))
    }

    func testPlainTextIsTheValueWithOneLineEndingRemoved() {
        XCTAssertEqual(ClientFrame(text: "heckj"), .input("heckj"))
        XCTAssertEqual(ClientFrame(text: "heckj\n"), .input("heckj"))
        XCTAssertEqual(ClientFrame(text: "heckj\r\n"), .input("heckj"))
        XCTAssertEqual(ClientFrame(text: "heckj\n\n"), .input("heckj\n"), "only one line ending is removed")
        XCTAssertEqual(ClientFrame(text: ""), .input(""))
        XCTAssertEqual(ClientFrame(text: " {x"), .input(" {x"), "only a leading { means JSON")
        XCTAssertEqual(ClientFrame(text: "[1]"), .input("[1]"))
        XCTAssertEqual(ClientFrame(text: "héckj\r\n"), .input("héckj"))
    }

    func testUnreadableFrames() {
        for text in ["{", "{bad json", #"{"value":"x"}"#, #"{"type":"ping"}"#, #"{"type":"input","value":3}"#, "{}"] {
            guard case .unreadable = ClientFrame(text: text) else {
                XCTFail("\(text) should be unreadable")
                continue
            }
        }
    }

    /// The byte-level reading of the usual frame agrees with the general parser wherever it
    /// answers, and leaves every other text to it.
    func testThePlainInputFrameReadsAsTheGeneralParserReadsIt() throws {
        for value in ["", "hec", "héckj", "日本", "a b", "x\u{7F}y", "😀", "{", "}", "'", "/"] {
            let text = #"{"type":"input","value":""# + value + #""}"#
            XCTAssertEqual(ClientFrame.plainInput(text), value)
            XCTAssertEqual(ClientFrame.plainInput(text), try XCTUnwrap(JSONObjectStrings(text))["value"])
            XCTAssertEqual(ClientFrame(text: text), .input(value))
        }
        let others = [
            #"{"type":"input","value":"a\"b"}"#, #"{"type":"input","value":"a\\b"}"#, #"{"type":"input","value":"\u0041"}"#,
            "{\"type\":\"input\",\"value\":\"a\tb\"}", #"{"type":"input","value":"a","value":"b"}"#,
            #"{"type":"input","value":"a"} "#, #" {"type":"input","value":"a"}"#, #"{"value":"a","type":"input"}"#,
            #"{"type":"input","value":""#, #"{"type":"input","value":"}"#, #"{"type":"input","value":3}"#,
        ]
        for text in others {
            XCTAssertNil(ClientFrame.plainInput(text), text)
        }
        XCTAssertEqual(ClientFrame(text: #"{"type":"input","value":"a\"b"}"#), .input("a\"b"))
        XCTAssertEqual(ClientFrame(text: #"{"type":"input","value":"\u0041"}"#), .input("A"))
        XCTAssertEqual(ClientFrame(text: #"{"value":"a","type":"input"}"#), .input("a"))
        XCTAssertEqual(ClientFrame(text: #"{"type":"input","value":"a","value":"b"}"#), .input("a"))
    }
}

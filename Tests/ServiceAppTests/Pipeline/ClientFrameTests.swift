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
}

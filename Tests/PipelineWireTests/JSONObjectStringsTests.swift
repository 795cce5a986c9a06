import Foundation
import XCTest

@testable import PipelineWire

/// The endpoints' client frames were read with `JSONSerialization`, which stays the reference.
final class JSONObjectStringsTests: XCTestCase {
    private let frames = [
        #"{"type":"input","value":"heckj"}"#, #" { "value" : "a\"b\u00e9\n" , "type":"input" } "#,
        #"{"type":"input","value":5}"#, #"{"type":"input","value":null}"#, #"{"type":"input"}"#, #"{}"#,
        #"{"type":["input"],"value":"x"}"#, #"{"type":"field","name":"value1","value":"ab","extra":{"n":[1,2.5e3,true]}}"#,
        #"{"type":"refresh"}"#, #"{"type":"input","value":"x",}"#, #"{"type":"input","value":"x""#, #"{"type":"input" "value":"x"}"#,
        #"{"type":'input'}"#, #"{"type":"input","value":"\ud83d"}"#, #"{"type":"in\u0000put"}"#, "{\"type\":\"a\tb\"}",
        #"["type","input"]"#, #""input""#, #"{"type":"input"} x"#, #"{"type":01}"#, "heckj", "",
    ]

    func testAgreesWithJSONSerialization() {
        for frame in frames {
            let reference = (try? JSONSerialization.jsonObject(with: Data(frame.utf8))) as? [String: Any]
            let read = JSONObjectStrings(frame)
            XCTAssertEqual(read == nil, reference == nil, frame)
            for key in ["type", "value", "name", "extra", "missing"] {
                XCTAssertEqual(read?[key], reference?[key] as? String, "\(key) of \(frame)")
            }
        }
    }

    func testTheFirstOfARepeatedKeyCounts() {
        XCTAssertEqual(JSONObjectStrings(#"{"type":"input","type":"refresh"}"#)?["type"], "input")
        XCTAssertNil(JSONObjectStrings(#"{"type":1,"type":"refresh"}"#)?["type"])
    }

    func testNestingDeeperThanTheLimitIsRefused() {
        let deep = #"{"a":"# + String(repeating: "[", count: 10) + String(repeating: "]", count: 10) + "}"
        XCTAssertNotNil(JSONObjectStrings(deep))
        XCTAssertNil(JSONObjectStrings(deep, maxDepth: 5))
    }
}

import Foundation
import StreamCore
import XCTest

@testable import ServiceApp

/// Reading `/ws/pipelines` client frames and writing server frames.
final class MuxFrameTests: XCTestCase {
    func testReadsTheFourClientFrames() {
        XCTAssertEqual(MuxClientFrame(text: #"{"type":"subscribe","id":"u1","pipeline":"github-user","demand":4}"#),
                       .subscribe(id: "u1", pipeline: "github-user", demand: .max(4), trace: false))
        XCTAssertEqual(MuxClientFrame(text: #"{"type":"subscribe","id":"u1","pipeline":"form","trace":true}"#),
                       .subscribe(id: "u1", pipeline: "form", demand: .unlimited, trace: true), "demand defaults to unlimited")
        XCTAssertEqual(MuxClientFrame(text: #"{"type":"subscribe","id":"u1","pipeline":"form","demand":"unlimited"}"#),
                       .subscribe(id: "u1", pipeline: "form", demand: .unlimited, trace: false))
        XCTAssertEqual(MuxClientFrame(text: #"{"type":"subscribe","id":"u1","pipeline":"form","demand":0}"#),
                       .subscribe(id: "u1", pipeline: "form", demand: .none, trace: false))
        XCTAssertEqual(MuxClientFrame(text: #"{"type":"request","id":"u1","n":8}"#), .request(id: "u1", demand: .max(8)))
        XCTAssertEqual(MuxClientFrame(text: #"{"type":"request","id":"u1","n":"unlimited"}"#), .request(id: "u1", demand: .unlimited))
        XCTAssertEqual(MuxClientFrame(text: #"{"type":"cancel","id":"u1"}"#), .cancel(id: "u1"))
        XCTAssertEqual(MuxClientFrame(text: #"{"type":"send","id":"u1","message":"heckj\n"}"#), .send(id: "u1", message: "heckj\n"),
                       "a string message is a text frame as it came")
        guard case .send("u1", let message) = MuxClientFrame(text: #"{"type":"send","id":"u1","message":{"type":"input","value":"hé","n":3}}"#) else {
            return XCTFail("not a send")
        }
        let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any]
        XCTAssertEqual(object?["type"] as? String, "input")
        XCTAssertEqual(object?["value"] as? String, "hé")
        XCTAssertEqual(object?["n"] as? Int, 3)
        XCTAssertEqual(ClientFrame(text: message), .input("hé"), "the pipeline reads the re-encoded object as its own frame")
    }

    func testRefusesWhatItCannotTakeWithTheRightCode() {
        let cases: [(String, String?, MuxErrorCode)] = [
            ("heckj", nil, .badMessage),
            ("{oops", nil, .badMessage),
            ("[1]", nil, .badMessage),
            (#"{"id":"u1"}"#, nil, .badMessage),
            (#"{"type":"nope","id":"u1"}"#, "u1", .badMessage),
            (#"{"type":"cancel"}"#, nil, .badMessage),
            (#"{"type":"cancel","id":""}"#, nil, .badMessage),
            (#"{"type":"cancel","id":7}"#, nil, .badMessage),
            (#"{"type":"cancel","id":"\#(String(repeating: "x", count: 65))"}"#, nil, .badMessage),
            (#"{"type":"subscribe","id":"u1"}"#, "u1", .badMessage),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","trace":"yes"}"#, "u1", .badMessage),
            (#"{"type":"send","id":"u1"}"#, "u1", .badMessage),
            (#"{"type":"send","id":"u1","message":[1]}"#, "u1", .badMessage),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","demand":-1}"#, "u1", .badDemand),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","demand":1.5}"#, "u1", .badDemand),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","demand":true}"#, "u1", .badDemand),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","demand":"lots"}"#, "u1", .badDemand),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","demand":1e30}"#, "u1", .badDemand),
            (#"{"type":"request","id":"u1","n":0}"#, "u1", .badDemand),
            (#"{"type":"request","id":"u1"}"#, "u1", .badDemand),
            (#"{"type":"request","id":"u1","n":null}"#, "u1", .badDemand),
        ]
        for (text, id, code) in cases {
            guard case .refused(let refusedID, let refusedCode, let message) = MuxClientFrame(text: text) else {
                XCTFail("\(text) was accepted")
                continue
            }
            XCTAssertEqual(refusedID, id, text)
            XCTAssertEqual(refusedCode, code, text)
            XCTAssertFalse(message.isEmpty, text)
        }
    }

    /// Nothing a client sends crashes the parser: nesting far deeper than any frame needs is a
    /// `bad_message`, not a stack overflow.
    func testDeepNestingIsRefusedNotACrash() {
        for depth in [1_000, 200_000] {
            let arrays = #"{"type":"send","id":"a","message":{"x":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
            let objects = #"{"type":"send","id":"a","message":"# + String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth + 1)
            for text in [arrays, objects] {
                guard case .refused(nil, .badMessage, _) = MuxClientFrame(text: text) else {
                    XCTFail("depth \(depth) was not refused")
                    continue
                }
            }
        }
    }

    func testAnIDIsOneToSixtyFourCodePoints() {
        let longest = String(repeating: "é", count: 64)
        XCTAssertEqual(MuxClientFrame(text: #"{"type":"cancel","id":"\#(longest)"}"#), .cancel(id: longest))
        XCTAssertEqual(MuxClientFrame(text: #"{"type":"cancel","id":"a"}"#), .cancel(id: "a"))
    }

    func testServerFramesAreOneJSONObjectWithTheEventEmbeddedAsItCame() throws {
        XCTAssertEqual(MuxServerFrame.subscribed(id: "u1", pipeline: "form").json, #"{"id":"u1","pipeline":"form","type":"subscribed"}"#)
        XCTAssertEqual(MuxServerFrame.event(id: "u1", event: #"{"pipeline":"form","type":"hello"}"#).json,
                       #"{"event":{"pipeline":"form","type":"hello"},"id":"u1","type":"event"}"#)
        XCTAssertEqual(MuxServerFrame.trace(id: "u1", trace: #"{"event":"cancel","stage":"lookup","t":1,"type":"trace"}"#).json,
                       #"{"id":"u1","event":"cancel","stage":"lookup","t":1,"type":"trace"}"#)
        XCTAssertEqual(MuxServerFrame.error(id: nil, code: .badMessage, message: "m").json, #"{"code":"bad_message","id":null,"message":"m","type":"error"}"#)
        // Any id survives the round trip: quotes, backslashes, control characters, emoji.
        let id = "a\"b\\c\nd\u{1}é👍🏽/"
        let text = MuxServerFrame.error(id: id, code: .unknownID, message: "tab\there").json
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(object["id"] as? String, id)
        XCTAssertEqual(object["message"] as? String, "tab\there")
        XCTAssertFalse(text.contains("\n"), "one line")
    }
}

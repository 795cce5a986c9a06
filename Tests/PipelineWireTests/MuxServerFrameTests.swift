import Foundation
import XCTest

@testable import PipelineWire

/// Writing and reading `/ws/pipelines` server frames.
final class MuxServerFrameTests: XCTestCase {
    private func read(_ text: String) -> Result<MuxServerFrame, MuxFrameError> {
        Result { () throws(MuxFrameError) in try MuxServerFrame(decoding: text) }
    }

    func testServerFramesAreOneJSONObjectWithTheEventEmbeddedAsItCame() throws {
        XCTAssertEqual(MuxServerFrame.subscribed(id: "u1", pipeline: "form").json, #"{"id":"u1","pipeline":"form","type":"subscribed"}"#)
        XCTAssertEqual(MuxServerFrame.event(id: "u1", event: #"{"pipeline":"form","type":"hello"}"#).json,
                       #"{"event":{"pipeline":"form","type":"hello"},"id":"u1","type":"event"}"#)
        // Keys sorted, the id among them (issue #31: it used to come first).
        XCTAssertEqual(MuxServerFrame.trace(id: "u1", trace: #"{"event":"cancel","stage":"lookup","t":1,"type":"trace"}"#).json,
                       #"{"event":"cancel","id":"u1","stage":"lookup","t":1,"type":"trace"}"#)
        XCTAssertEqual(
            MuxServerFrame.trace(
                id: "u\"1", trace: #"{"event":"completion","failure":"x,\"stage\":y","stage":"lookup","t":1,"type":"trace"}"#).json,
            #"{"event":"completion","failure":"x,\"stage\":y","id":"u\"1","stage":"lookup","t":1,"type":"trace"}"#)
        XCTAssertEqual(
            MuxServerFrame.trace(id: "f1", trace: #"{"event":"value","stage":"input","t":2,"type":"trace","value":{"stage":1}}"#).json,
            #"{"event":"value","id":"f1","stage":"input","t":2,"type":"trace","value":{"stage":1}}"#)
        XCTAssertEqual(MuxServerFrame.trace(id: "f1", trace: #"{"event":"cancel"}"#).json, #"{"event":"cancel","id":"f1"}"#)
        XCTAssertEqual(MuxServerFrame.trace(id: "f1", trace: "{}").json, #"{"id":"f1"}"#)
        XCTAssertEqual(MuxServerFrame.error(id: nil, code: .badMessage, message: "m").json, #"{"code":"bad_message","id":null,"message":"m","type":"error"}"#)
        XCTAssertEqual(MuxServerFrame.overflow(id: "f1", limit: 2).json,
                       #"{"failure":{"code":"overflow","message":"more than 2 events waited for demand"},"id":"f1","type":"completion"}"#)
        XCTAssertEqual(MuxServerFrame.completion(id: "f1", failure: nil).json, #"{"finished":true,"id":"f1","type":"completion"}"#)
        // Any id survives the round trip: quotes, backslashes, control characters, emoji.
        let id = "a\"b\\c\nd\u{1}é👍🏽/"
        let text = MuxServerFrame.error(id: id, code: .unknownID, message: "tab\there").json
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(object["id"] as? String, id)
        XCTAssertEqual(object["message"] as? String, "tab\there")
        XCTAssertFalse(text.contains("\n"), "one line")
    }

    /// Every server frame reads back as itself, one line of JSON, keys sorted.
    func testEveryServerFrameRoundTrips() throws {
        let id = "a\"b\\c\nd\u{1}é👍🏽/"
        let frames: [MuxServerFrame] = [
            .subscribed(id: "u1", pipeline: "github-user"),
            .subscribed(id: id, pipeline: "form"),
            .event(id: "u1", event: #"{"minLength":3,"pipeline":"github-user","throttleMs":500,"type":"hello"}"#),
            .event(id: id, event: #"{"query":"h\"é","status":"found","type":"result","users":[{"id":1,"login":"h","name":null}]}"#),
            .trace(id: "u1", trace: #"{"event":"value","stage":"input","t":2.5,"type":"trace","value":{"stage":1}}"#),
            .trace(id: id, trace: #"{"event":"completion","failure":"x,\"stage\":y","stage":"lookup","t":1,"type":"trace"}"#),
            .completion(id: "u1", failure: nil),
            .overflow(id: id, limit: 256),
            .error(id: nil, code: .badMessage, message: "a frame must be one JSON object"),
            .error(id: id, code: .tooManySessions, message: "tab\there"),
            .error(id: "u1", code: MuxErrorCode(rawValue: "a_newer_code"), message: "m"),
            .error(id: "c", code: .badPipeline, message: "map: \"fn\" must be one of …", stage: 2),
            .error(id: "c", code: .badPipeline, message: "a pipeline needs at least one stage", stage: nil),
        ]
        for frame in frames {
            let json = frame.json
            XCTAssertEqual(read(json), .success(frame), json)
            XCTAssertFalse(json.contains("\n"), "one line: \(json)")
            XCTAssertEqual(try sortedKeys(json), json, "keys sorted")
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
            let type = try XCTUnwrap(object["type"] as? String)
            let fields = try XCTUnwrap(MuxServerFrame.fields[type], type)
            if type != "trace" { XCTAssertTrue(Set(object.keys).subtracting(["type"]).isSubset(of: fields), json) }
            XCTAssertEqual(frame.id, object["id"] as? String)
        }
    }

    /// `stage` is on bad_pipeline errors only: an index, or null for the whole definition.
    func testABadPipelineErrorCarriesItsStage() {
        XCTAssertEqual(MuxServerFrame.error(id: "c", code: .badPipeline, message: "m", stage: 2).json,
                       #"{"code":"bad_pipeline","id":"c","message":"m","stage":2,"type":"error"}"#)
        XCTAssertEqual(MuxServerFrame.error(id: "c", code: .badPipeline, message: "m").json,
                       #"{"code":"bad_pipeline","id":"c","message":"m","stage":null,"type":"error"}"#)
        XCTAssertEqual(MuxServerFrame.error(id: "c", code: .badDemand, message: "m", stage: 2).json,
                       #"{"code":"bad_demand","id":"c","message":"m","type":"error"}"#, "no stage on other errors")
        XCTAssertEqual(read(#"{"code":"bad_pipeline","id":"c","message":"m","stage":0,"type":"error"}"#),
                       .success(.error(id: "c", code: .badPipeline, message: "m", stage: 0)))
        XCTAssertEqual(read(#"{"code":"bad_pipeline","id":"c","message":"m","stage":"0","type":"error"}"#).map { _ in "read" },
                       .failure(MuxFrameError(id: nil, code: .badMessage,
                                              message: #"a stage that is not an index: {"code":"bad_pipeline","id":"c","message":"m","stage":"0","type":"error"}"#)))
        XCTAssertEqual(MuxErrorCode.badPipeline.rawValue, "bad_pipeline")
        XCTAssertTrue(MuxErrorCode.allCases.contains(.badPipeline))
    }

    func testAClientRefusesWhatTheContractDoesNotDefine() {
        let cases: [(String, String)] = [
            ("nope", "not a JSON object with a type"),
            ("[]", "not a JSON object with a type"),
            (#"{"id":"s1"}"#, "not a JSON object with a type"),
            (#"{"type":"event","id":"s1"}"#, "an event frame without an event object"),
            (#"{"type":"event","id":"s1","event":[1]}"#, "an event frame without an event object"),
            (#"{"type":"event","event":{}}"#, "unknown frame"),
            (#"{"type":"mystery","id":"s1"}"#, "unknown frame"),
            (#"{"type":"subscribed","id":"s1"}"#, "a subscribed frame without a pipeline"),
            (#"{"type":"completion","id":"s1","failure":"x"}"#, "a failure that is not an object"),
            (#"{"type":"completion","id":"s1","failure":{"code":"x"}}"#, "a failure without a code and a message"),
            (#"{"type":"error","id":"s1","code":"x"}"#, "an error frame without a code and a message"),
            (#"{"type":"error","id":7,"code":"x","message":"m"}"#, "an id that is not a string"),
        ]
        for (text, reason) in cases {
            guard case .failure(let error) = read(text) else {
                XCTFail("\(text) was accepted")
                continue
            }
            XCTAssertEqual(error.code, .badMessage, text)
            XCTAssertNil(error.id, text)
            XCTAssertEqual(error.message, "\(reason): \(text)")
        }
    }

    func testAnEventIsItsExactText() {
        let event = #"{"type":"result", "query":"heckj","users":[]}"#
        XCTAssertEqual(read(#"{"event":\#(event),"id":"s1","type":"event"}"#), .success(.event(id: "s1", event: event)))
    }
}

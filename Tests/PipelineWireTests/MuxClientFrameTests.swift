import Foundation
import XCTest

@testable import PipelineWire

/// Reading and writing `/ws/pipelines` client frames (moved here from ServiceApp's
/// MuxFrameTests, with the codec).
final class MuxClientFrameTests: XCTestCase {
    private func read(_ text: String) -> Result<MuxClientFrame, MuxFrameError> {
        Result { () throws(MuxFrameError) in try MuxClientFrame(decoding: text) }
    }

    func testReadsTheFourClientFrames() {
        XCTAssertEqual(read(#"{"type":"subscribe","id":"u1","pipeline":"github-user","demand":4}"#),
                       .success(.subscribe(id: "u1", pipeline: "github-user", demand: .max(4), trace: false)))
        XCTAssertEqual(read(#"{"type":"subscribe","id":"u1","pipeline":"form","trace":true}"#),
                       .success(.subscribe(id: "u1", pipeline: "form", demand: .unlimited, trace: true)), "demand defaults to unlimited")
        XCTAssertEqual(read(#"{"type":"subscribe","id":"u1","pipeline":"form","demand":"unlimited"}"#),
                       .success(.subscribe(id: "u1", pipeline: "form", demand: .unlimited, trace: false)))
        XCTAssertEqual(read(#"{"type":"subscribe","id":"u1","pipeline":"form","demand":0}"#),
                       .success(.subscribe(id: "u1", pipeline: "form", demand: .none, trace: false)))
        XCTAssertEqual(read(#"{"type":"request","id":"u1","n":8}"#), .success(.request(id: "u1", demand: .max(8))))
        XCTAssertEqual(read(#"{"type":"request","id":"u1","n":8.0}"#), .success(.request(id: "u1", demand: .max(8))), "a whole number")
        XCTAssertEqual(read(#"{"type":"request","id":"u1","n":"unlimited"}"#), .success(.request(id: "u1", demand: .unlimited)))
        XCTAssertEqual(read(#"{"type":"cancel","id":"u1"}"#), .success(.cancel(id: "u1")))
        XCTAssertEqual(read(#"{"type":"send","id":"u1","message":"heckj\n"}"#), .success(.send(id: "u1", message: .text("heckj\n"))),
                       "a string message is a text frame as it came")
        XCTAssertEqual(read("{\"type\" : \"cancel\" ,\t\"id\":\"u\\u0031\"}\r\n"), .success(.cancel(id: "u1")),
                       "whitespace between tokens, escapes in strings")
    }

    /// A definition object is handed on as its exact text (read later, with the server's limits);
    /// anything but a string or an object is refused.
    func testASubscribesDefinitionIsItsExactText() {
        let definition = #"{ "stages": [ {"op":"debounce", "ms":3e2} ], "x":1 }"#
        XCTAssertEqual(read(#"{"type":"subscribe","id":"c","pipeline":\#(definition),"demand":16,"trace":true}"#),
                       .success(.subscribe(id: "c", pipeline: .composed(definition), demand: .max(16), trace: true)))
        for pipeline in ["[]", "3", "null", "true"] {
            XCTAssertEqual(read(#"{"type":"subscribe","id":"c","pipeline":\#(pipeline)}"#), .failure(MuxFrameError(
                id: "c", code: .badMessage, message: #"subscribe needs a "pipeline": a catalog name (a string) or a definition object"#)))
        }
        let preset = PipelineDefinition.presets[0].definition
        let frame = MuxClientFrame.subscribe(id: "c", pipeline: .composed(preset), demand: .max(16), trace: true)
        XCTAssertEqual(frame.json, #"{"demand":16,"id":"c","pipeline":\#(preset.json),"trace":true,"type":"subscribe"}"#)
        XCTAssertEqual(read(frame.json), .success(frame))
        XCTAssertEqual(MuxPipelineName.composed(preset), .composed(preset.json))
        XCTAssertEqual("form" as MuxPipelineName, .catalog("form"))
    }

    /// The inner message is handed on as the exact bytes it had in the frame: nothing decoded
    /// and encoded again (its spacing, key order, escapes and numbers as the client wrote them).
    func testASendsObjectIsItsExactText() {
        let message = #"{ "value":"h\u00e9 \"x\"", "type":"input","n":3.10, "deep":[{"a":[]}] }"#
        XCTAssertEqual(read(#"{"type":"send","message":\#(message),"id":"u1"}"#), .success(.send(id: "u1", message: .object(json: message))))
        XCTAssertEqual(MuxSendMessage.object(json: message).frameText, message)
        XCTAssertEqual(MuxSendMessage.text("heckj").frameText, "heckj")
    }

    func testRefusesWhatItCannotTakeWithTheRightCode() {
        let cases: [(String, String?, MuxErrorCode)] = [
            ("heckj", nil, .badMessage),
            ("", nil, .badMessage),
            ("{oops", nil, .badMessage),
            ("[1]", nil, .badMessage),
            (" {}", nil, .badMessage),
            (#"{"id":"u1"}"#, nil, .badMessage),
            (#"{"type":"cancel","id":"u1"} x"#, nil, .badMessage),
            (#"{"type":"cancel","id":"u1",,}"#, nil, .badMessage),
            (#"{"type":"cancel","id":"u\ud800"}"#, nil, .badMessage),
            ("{\"type\":\"cancel\",\"id\":\"u\t1\"}", nil, .badMessage),
            (#"{"type":"send","id":"u1","message":{"n":01}}"#, nil, .badMessage),
            (#"{"type":"send","id":"u1","message":{"n":[1,,]}}"#, nil, .badMessage),
            (#"{"type":"send","id":"u1","message":{"n":tru}}"#, nil, .badMessage),
            (#"{"type":"send","id":"u1","message":{"s":"\x"}}"#, nil, .badMessage),
            (#"{"type":"nope","id":"u1"}"#, "u1", .badMessage),
            (#"{"type":7,"id":"u1"}"#, nil, .badMessage),
            (#"{"type":"cancel"}"#, nil, .badMessage),
            (#"{"type":"cancel","id":""}"#, nil, .badMessage),
            (#"{"type":"cancel","id":7}"#, nil, .badMessage),
            (#"{"type":"cancel","id":"\#(String(repeating: "x", count: 65))"}"#, nil, .badMessage),
            (#"{"type":"subscribe","id":"u1"}"#, "u1", .badMessage),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","trace":"yes"}"#, "u1", .badMessage),
            (#"{"type":"send","id":"u1"}"#, "u1", .badMessage),
            (#"{"type":"send","id":"u1","message":[1]}"#, "u1", .badMessage),
            (#"{"type":"send","id":"u1","message":3}"#, "u1", .badMessage),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","demand":-1}"#, "u1", .badDemand),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","demand":1.5}"#, "u1", .badDemand),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","demand":true}"#, "u1", .badDemand),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","demand":"lots"}"#, "u1", .badDemand),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","demand":1e30}"#, "u1", .badDemand),
            (#"{"type":"subscribe","id":"u1","pipeline":"form","demand":null}"#, "u1", .badDemand),
            (#"{"type":"request","id":"u1","n":0}"#, "u1", .badDemand),
            (#"{"type":"request","id":"u1"}"#, "u1", .badDemand),
            (#"{"type":"request","id":"u1","n":null}"#, "u1", .badDemand),
        ]
        for (text, id, code) in cases {
            guard case .failure(let error) = read(text) else {
                XCTFail("\(text) was accepted")
                continue
            }
            XCTAssertEqual(error.id, id, text)
            XCTAssertEqual(error.code, code, text)
            XCTAssertFalse(error.message.isEmpty, text)
        }
    }

    /// The contract's texts (docs/protocol.md, the end-to-end tests).
    func testRefusalsSayWhy() {
        XCTAssertEqual(read("heckj"), .failure(MuxFrameError(id: nil, code: .badMessage, message: "a frame must be one JSON object")))
        XCTAssertEqual(read(#"{"id":"u1"}"#), .failure(MuxFrameError(id: nil, code: .badMessage, message: #"the frame has no string "type""#)))
        XCTAssertEqual(read(#"{"type":"nope","id":"u1"}"#), .failure(MuxFrameError(
            id: "u1", code: .badMessage, message: #"unknown frame type "nope"; expected subscribe, send, request or cancel"#)))
        XCTAssertEqual(read(#"{"type":"subscribe","id":"u1"}"#),
                       .failure(MuxFrameError(id: "u1", code: .badMessage, message: #"subscribe needs a "pipeline": a catalog name (a string) or a definition object"#)))
        XCTAssertEqual(read(#"{"type":"send","id":"u1"}"#), .failure(MuxFrameError(
            id: "u1", code: .badMessage, message: #"send needs a "message": a JSON object (or a text frame as a string)"#)))
        XCTAssertEqual(read(#"{"type":"request","id":"u1","n":0}"#), .failure(MuxFrameError(
            id: "u1", code: .badDemand, message: #""n" must be an integer from 1 to 2^63 − 1, or "unlimited""#)))
    }

    func testOneTrailingCommaIsTakenAsFoundationTakesIt() {
        XCTAssertEqual(read(#"{"type":"cancel","id":"u1", }"#), .success(.cancel(id: "u1")))
        XCTAssertEqual(read(#"{"type":"send","id":"u1","message":{"a":[1,],}}"#), .success(.send(id: "u1", message: .object(json: #"{"a":[1,],}"#))))
    }

    func testAKeyGivenTwiceCountsOnceTheFirstTime() {
        XCTAssertEqual(read(#"{"type":"cancel","id":"a","id":"b"}"#), .success(.cancel(id: "a")), "as Foundation's decoder reads it")
    }

    /// Nothing a client sends crashes the parser: nesting far deeper than any frame needs is a
    /// `bad_message`, not a stack overflow.
    func testDeepNestingIsRefusedNotACrash() {
        let deep = "the frame is nested too deeply: more than 512 levels of arrays and objects"
        for depth in [1_000, 200_000] {
            let arrays = #"{"type":"send","id":"a","message":{"x":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
            let objects = #"{"type":"send","id":"a","message":"# + String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth + 1)
            for text in [arrays, objects] {
                // Issue #31: it used to say "a frame must be one JSON object".
                XCTAssertEqual(read(text), .failure(MuxFrameError(id: nil, code: .badMessage, message: deep)), "depth \(depth)")
            }
        }
        // The limit itself: the frame is level 1, so 511 more levels pass and 512 do not.
        func nested(_ levels: Int) -> String {
            #"{"type":"send","id":"a","message":"# + String(repeating: #"{"a":"#, count: levels - 1) + "{}" + String(repeating: "}", count: levels)
        }
        guard case .success(.send("a", .object(let json))) = read(nested(511)) else { return XCTFail("512 levels refused") }
        XCTAssertEqual(json.utf8.count, 510 * 6 + 2)
        XCTAssertEqual(read(nested(512)), .failure(MuxFrameError(id: nil, code: .badMessage, message: deep)))
        // 5,000 arrays deep in a send, as the issue found it; brackets inside strings do not count.
        let send = #"{"type":"send","id":"a","message":"# + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "}"
        XCTAssertEqual(read(send), .failure(MuxFrameError(id: nil, code: .badMessage, message: deep)))
        let inString = #"{"type":"send","id":"a","message":""# + String(repeating: "[", count: 5_000) + #""}"#
        XCTAssertEqual(read(inString), .success(.send(id: "a", message: .text(String(repeating: "[", count: 5_000)))))
        XCTAssertFalse(JSONNesting.exceeds(512, in: String(repeating: "[", count: 512).utf8))
        XCTAssertTrue(JSONNesting.exceeds(512, in: String(repeating: "[", count: 513).utf8))
        XCTAssertFalse(JSONNesting.exceeds(2, in: #"["\"[[[", [1]]"#.utf8), "an escaped quote does not end the string")
        // Malformed but shallow JSON keeps the general message.
        XCTAssertEqual(read("{oops"), .failure(MuxFrameError(id: nil, code: .badMessage, message: "a frame must be one JSON object")))
    }

    /// Issue #31: the docs say a demand is below 2^63; 2^63 − 1 used to be refused.
    func testTheLargestDemandIsTwoToTheSixtyThreeMinusOne() {
        XCTAssertEqual(read(#"{"type":"subscribe","id":"u1","pipeline":"form","demand":9223372036854775807}"#),
                       .success(.subscribe(id: "u1", pipeline: "form", demand: .max(Int.max), trace: false)))
        XCTAssertEqual(read(#"{"type":"request","id":"u1","n":9223372036854775807}"#), .success(.request(id: "u1", demand: .max(Int.max))))
        XCTAssertEqual(read(#"{"type":"request","id":"u1","n":9223372036854775806}"#), .success(.request(id: "u1", demand: .max(Int.max - 1))))
        XCTAssertEqual(read(#"{"type":"request","id":"u1","n":4611686018427387904}"#), .success(.request(id: "u1", demand: .max(1 << 62))))
        for text in [#"{"type":"subscribe","id":"u1","pipeline":"form","demand":9223372036854775808}"#,
                     #"{"type":"request","id":"u1","n":9223372036854775808}"#,
                     #"{"type":"request","id":"u1","n":99999999999999999999999}"#,
                     #"{"type":"request","id":"u1","n":9.3e18}"#] {
            guard case .failure(let error) = read(text) else {
                XCTFail("\(text) was accepted")
                continue
            }
            XCTAssertEqual(error.id, "u1")
            XCTAssertEqual(error.code, .badDemand)
            XCTAssertTrue(error.message.contains("2^63 − 1"), error.message)
        }
    }

    func testAnIDIsOneToSixtyFourCodePoints() {
        let longest = String(repeating: "é", count: 64)
        XCTAssertEqual(read(#"{"type":"cancel","id":"\#(longest)"}"#), .success(.cancel(id: longest)))
        XCTAssertEqual(read(#"{"type":"cancel","id":"a"}"#), .success(.cancel(id: "a")))
        // 33 "👍🏽": 33 characters as a person counts them, 66 code points. The message says
        // what is counted (issue #31: it said "characters").
        let thumbs = String(repeating: "👍🏽", count: 33)
        XCTAssertEqual(read(#"{"type":"cancel","id":"\#(thumbs)"}"#),
                       .failure(MuxFrameError(id: nil, code: .badMessage, message: #""id" must be a string of 1 to 64 Unicode code points"#)))
    }

    /// Every client frame reads back as itself, and is one line of JSON with sorted keys.
    func testEveryClientFrameRoundTrips() throws {
        let id = "a\"b\\c\nd\u{1}é👍🏽/"
        let frames: [MuxClientFrame] = [
            .subscribe(id: "u1", pipeline: "github-user", demand: .max(4), trace: false),
            .subscribe(id: id, pipeline: "form", demand: .unlimited, trace: true),
            .subscribe(id: "u1", pipeline: "form", demand: .none, trace: false),
            .subscribe(id: "u1", pipeline: "form", demand: .max(Int.max), trace: false),
            .subscribe(id: "c", pipeline: .composed(#"{"stages":[{"op":"removeDuplicates"}]}"#), demand: .max(1), trace: false),
            .send(id: "u1", message: .object(json: #"{"type":"input","value":"hé \"x\"\n"}"#)),
            .send(id: id, message: .text("heckj\r\n\u{0}")),
            .request(id: "u1", demand: .max(1)),
            .request(id: "u1", demand: .unlimited),
            .cancel(id: id),
        ]
        for frame in frames {
            let json = frame.json
            XCTAssertEqual(read(json), .success(frame), json)
            XCTAssertFalse(json.contains("\n"), "one line: \(json)")
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
            let type = try XCTUnwrap(object["type"] as? String)
            let fields = try XCTUnwrap(MuxClientFrame.fields[type], type)
            XCTAssertTrue(Set(object.keys).subtracting(["type"]).isSubset(of: fields.all), json)
            XCTAssertTrue(Set(fields.required).isSubset(of: object.keys), json)
            XCTAssertEqual(try sortedKeys(json), json, "keys sorted")
        }
        XCTAssertEqual(MuxClientFrame.subscribe(id: "s1", pipeline: "form", demand: .max(4), trace: false).json,
                       #"{"demand":4,"id":"s1","pipeline":"form","type":"subscribe"}"#)
        XCTAssertEqual(MuxClientFrame.request(id: "s1", demand: .unlimited).json, #"{"id":"s1","n":"unlimited","type":"request"}"#)
    }
}

/// `json` re-encoded with sorted keys by Foundation (equal to `json` when its keys were sorted and
/// it has nothing Foundation writes otherwise).
func sortedKeys(_ json: String) throws -> String {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
}

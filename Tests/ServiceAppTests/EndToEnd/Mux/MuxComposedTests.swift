import FakeGithub
import Foundation
import HTTPTestSupport
import PipelineWire
import StreamCore
import XCTest

@testable import ServiceApp

/// A composed pipeline on a real `/ws/pipelines` socket: refused with its stage, or subscribed
/// as `composed`, its `hello` first, its values in `value` events — with demand, traces and
/// cancel as for any subscription — and its lookups charged to fair use.
final class MuxComposedTests: EndToEndTestCase {
    func testARefusedDefinitionNamesItsStageAndTheConnectionGoesOn() throws {
        try startVirtualService { $0.mux.composer.maxStages = 2 }
        let mux = try MuxClient(port: port)
        try mux.subscribe("c", ["stages": [["op": "map", "fn": "count"], ["op": "map", "fn": "uppercased"]]])
        let refused = try mux.error()
        XCTAssertEqual(refused.code, "bad_pipeline")
        XCTAssertEqual(refused.object["stage"] as? Int, 1)
        XCTAssertEqual(refused.object["message"] as? String, "map does not accept a number (it accepts string)")
        try mux.subscribe("c", ["stages": [["op": "delay"], ["op": "delay"], ["op": "delay"]]])
        let tooLong = try mux.error()
        XCTAssertEqual(tooLong.code, "bad_pipeline")
        XCTAssertTrue(tooLong.object["stage"] is NSNull, "\(tooLong)")
        XCTAssertTrue(tooLong.raw.contains(#""stage":null"#), tooLong.raw)
        try mux.subscribe("c", ["stages": [["op": "map", "fn": "uppercased", "extra": 1]]])
        XCTAssertEqual(try mux.error().object["stage"] as? Int, 0, "an unknown parameter is refused, not ignored")

        try mux.subscribe("c", ["stages": [["op": "map", "fn": "uppercased"]]], demand: .max(2))
        XCTAssertEqual(try mux.waitFor { $0.type == "subscribed" }.pipeline, "composed")
        try mux.send("c", "abc")
        try mux.send("c", ["type": "input", "value": "de"])
        _ = try mux.waitFor { _ in (mux.events["c"]?.count ?? 0) >= 2 }
        try mux.barrier()
        XCTAssertEqual(mux.events["c"], [
            #"{"pipeline":"composed","stages":[{"fn":"uppercased","op":"map"}],"type":"hello"}"#,
            #"{"type":"value","value":"ABC"}"#,
        ])
        try mux.request("c", .max(1))
        _ = try mux.waitFor { _ in (mux.events["c"]?.count ?? 0) >= 3 }
        XCTAssertEqual(mux.events["c"]?.last, #"{"type":"value","value":"DE"}"#)
    }

    func testTheGithubUserPresetOverTheWireWithTraces() throws {
        try startVirtualService()
        let mux = try MuxClient(port: port)
        let preset = try XCTUnwrap(PipelineDefinitionPresets.object(named: "github-user"))
        try mux.subscribe("u", preset, trace: true)
        try mux.send("u", "heckj")
        try mux.barrier()
        scheduler.advance(by: .milliseconds(600))
        let result = try mux.waitFor { $0.id == "u" && ($0.event ?? "").contains(#""type":"result""#) }
        XCTAssertTrue(try XCTUnwrap(result.event).contains(#""status":"found""#))
        _ = try mux.waitFor { $0.id == "u" && $0.event == #"{"active":false,"type":"activity"}"# }
        let lanes = Set(mux.frames(for: "u").filter { $0.type == "trace" }.compactMap(\.stage))
        XCTAssertEqual(lanes, ["input", "0:throttle", "1:removeDuplicates", "2:lookup"])
        try mux.cancel("u")
        try mux.barrier()
    }
}

/// A preset as the object a client sends.
enum PipelineDefinitionPresets {
    static func object(named name: String) -> Any? {
        guard let preset = PipelineDefinition.presets.first(where: { $0.name == name }) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(preset.definition.json.utf8))
    }
}

/// A composed subscription's lookups are charged to its client's allowance, like the catalog's.
final class MuxComposedFairUseTests: EndToEndTestCase {
    func testLookupsCountAgainstTheClientsAllowance() throws {
        try startService { $0.fairUse.lookupsPerClientPerMinute = 1 }
        let mux = try MuxClient(port: port)
        try mux.subscribe("c", ["stages": [["op": "lookup", "source": "github-user", "flatten": "concat"]]])
        try mux.send("c", "heckj")
        let first = try mux.waitFor { $0.id == "c" && ($0.event ?? "").contains(#""type":"result""#) }
        XCTAssertTrue(try XCTUnwrap(first.event).contains(#""status":"found""#))
        try mux.send("c", "heck")
        let second = try mux.waitFor { $0.id == "c" && ($0.event ?? "").contains(#""query":"heck","#) }
        XCTAssertTrue(try XCTUnwrap(second.event).contains(#""scope":"client""#), "\(second)")
        XCTAssertEqual(fake.requestCount(for: "heck"), 0)
    }
}

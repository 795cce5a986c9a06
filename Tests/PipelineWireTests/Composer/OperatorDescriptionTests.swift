import Foundation
import XCTest

@testable import PipelineWire

/// The operator catalog says what reading and checking do: the same operators, parameters,
/// defaults, bounds and kinds.
final class OperatorDescriptionTests: XCTestCase {
    /// A valid stage of each operator (its required parameters), and the stages it needs before it.
    private let samples: [String: (members: [String: String], before: [String])] = [
        "throttle": ([:], []), "debounce": ([:], []), "delay": ([:], []), "removeDuplicates": ([:], []),
        "filter": (["maxLength": "5"], []), "map": (["fn": #""count""#], []), "scan": (["fn": #""joined""#], []),
        "collect": (["count": "2"], []), "prepend": (["value": #""x""#], []), "lookup": (["source": #""github-user""#, "flatten": #""flatMap""#], []),
        "retry": (["times": "1"], [#"{"op":"lookup","source":"github-search"}"#]),
    ]

    private func decode(_ op: String, _ members: [String: String]) -> Result<PipelineDefinition, BadPipeline> {
        let before = samples[op]?.before ?? []
        let stage = "{" + ([#""op":"\#(op)""#] + members.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }).joined(separator: ",") + "}"
        return Result { () throws(BadPipeline) in try PipelineDefinition(decoding: #"{"stages":[\#((before + [stage]).joined(separator: ","))]}"#) }
    }

    func testTheCatalogHasEveryOperatorAndItsParameters() throws {
        // The contract's operators and parameters (docs/protocol.md), in the catalog's order.
        let expected: KeyValuePairs<String, [String]> = [
            "throttle": ["ms", "latest"], "debounce": ["ms"], "delay": ["ms"], "removeDuplicates": [],
            "filter": ["minLength", "maxLength", "prefix"], "map": ["fn"], "scan": ["fn", "separator"], "collect": ["count", "ms"],
            "prepend": ["value"], "lookup": ["source", "flatten", "maxPublishers"], "retry": ["times"],
        ]
        XCTAssertEqual(ComposedStage.ops, expected.map(\.key))
        XCTAssertEqual(OperatorDescription.all.map { $0.parameters.map(\.name) }, expected.map(\.value))
        for description in OperatorDescription.all {
            let sample = try XCTUnwrap(samples[description.op])
            XCTAssertNoThrow(try decode(description.op, sample.members).get(), description.op)
            for parameter in description.parameters where parameter.required {
                var members = sample.members
                members[parameter.name] = nil
                XCTAssertEqual(try? decode(description.op, members).get(), nil, "\(description.op) needs \(parameter.name)")
            }
        }
    }

    /// A parameter left out takes its default, and the normalised stage shows it.
    func testDefaultsAreWhatReadingFillsIn() throws {
        for description in OperatorDescription.all {
            let sample = try XCTUnwrap(samples[description.op])
            for parameter in description.parameters {
                guard let value = parameter.default else { continue }
                var members = sample.members
                members[parameter.name] = nil
                let stage = try XCTUnwrap(try decode(description.op, members).get().stages.last, description.op)
                let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stage.json.utf8)) as? [String: Any])
                XCTAssertEqual(try JSONSerialization.data(withJSONObject: [object[parameter.name] as Any], options: .fragmentsAllowed),
                               Data("[\(value.json)]".utf8), "\(description.op).\(parameter.name)")
            }
        }
    }

    /// Each integer's bounds, under the default limits and smaller ones: both accepted, one past
    /// either refused at the stage.
    func testIntegerBoundsAreTheCheckersBounds() throws {
        for limits in [ComposerLimits(), ComposerLimits(maxMs: 50, maxCount: 3, maxStringLength: 4, maxPublishers: 2)] {
            for description in OperatorDescription.all {
                let sample = try XCTUnwrap(samples[description.op])
                for parameter in description.parameters where parameter.type == .integer {
                    let minimum = try XCTUnwrap(parameter.minimum), maximum = try XCTUnwrap(parameter.maximum).value(in: limits)
                    var members = sample.members
                    if ["collect", "filter"].contains(description.op) { members = [:] }
                    func read(_ value: Int) -> Result<PipelineDefinition, BadPipeline> {
                        members[parameter.name] = String(value)
                        let before = sample.before
                        let stage = "{" + ([#""op":"\#(description.op)""#] + members.map { #""\#($0.key)":\#($0.value)"# }).joined(separator: ",") + "}"
                        return Result { () throws(BadPipeline) in
                            try PipelineDefinition(decoding: #"{"stages":[\#((before + [stage]).joined(separator: ","))]}"#, limits: limits)
                        }
                    }
                    let name = "\(description.op).\(parameter.name)"
                    XCTAssertNoThrow(try read(minimum).get(), name)
                    XCTAssertNoThrow(try read(maximum).get(), name)
                    for wrong in [minimum - 1, maximum + 1] {
                        guard case .failure(let refusal) = read(wrong) else { return XCTFail("\(name) = \(wrong) accepted") }
                        XCTAssertEqual(refusal.stage, sample.before.count, name)
                        XCTAssertTrue(refusal.message.contains("from \(minimum) to \(maximum)"), "\(name): \(refusal.message)")
                    }
                }
            }
        }
    }

    /// What each operator accepts, as the kinds say (for a representative stage).
    func testAcceptsIsWhatTheKindsSay() throws {
        let stages: [ComposedStage] = [
            .throttle(ms: 1, latest: true), .debounce(ms: 1), .delay(ms: 1), .removeDuplicates, .filter(minLength: 1, maxLength: nil, prefix: nil),
            .map(.count), .scan(.count), .collect(.count(2)), .prepend(.string("x")), .lookup(.githubUser, flatten: .concat), .retry(times: 1),
        ]
        XCTAssertEqual(stages.map(\.op), ComposedStage.ops)
        for stage in stages {
            let description = try XCTUnwrap(OperatorDescription.named(stage.op))
            let accepted = stage.acceptedKinds.map(\.rawValue)
            switch stage {
            case .map: XCTAssertEqual(Set(description.accepts), Set(ComposedStage.map(.count).acceptedKinds.map(\.rawValue) + ComposedStage.map(.login).acceptedKinds.map(\.rawValue)))
            case .prepend: XCTAssertEqual(description.accepts, ["string", "number", "boolean"])
            default: XCTAssertEqual(description.accepts, accepted == ValueKind.allCases.map(\.rawValue) ? ["any"] : accepted, stage.op)
            }
        }
    }

    func testTheCatalogDocument() throws {
        let limits = ComposerLimits(maxStages: 2, maxMs: 700)
        let json = OperatorDescription.catalogJSON(limits: limits)
        XCTAssertEqual(try sortedKeys(json), json, "keys sorted")
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(document["limits"] as? [String: Int], [
            "maxStages": 2, "maxMs": 700, "maxCount": 100, "maxStringLength": 256, "maxLookups": 2, "maxPublishers": 8,
        ])
        let operators = try XCTUnwrap(document["operators"] as? [[String: Any]])
        XCTAssertEqual(operators.map { $0["op"] as? String }, ComposedStage.ops)
        let throttle = try XCTUnwrap(operators.first)
        XCTAssertEqual(throttle["combine"] as? String, "throttle(for:scheduler:latest:)")
        XCTAssertEqual(throttle["accepts"] as? [String], ["any"])
        XCTAssertEqual(throttle["produces"] as? String, "same")
        let ms = try XCTUnwrap((throttle["parameters"] as? [[String: Any]])?.first)
        XCTAssertEqual(ms["maximum"] as? Int, 700, "bounds from the limits")
        XCTAssertEqual(ms["minimum"] as? Int, 0)
        XCTAssertEqual(ms["default"] as? Int, 500)
        XCTAssertEqual(ms["required"] as? Bool, false)
        XCTAssertEqual(ms["type"] as? String, "integer")
        let presets = try XCTUnwrap(document["presets"] as? [[String: Any]])
        XCTAssertFalse(presets.contains { ($0["name"] as? String) == "github-user" }, "only the presets the limits allow: github-user has 3 stages")
        XCTAssertEqual(presets.map { $0["name"] as? String }, ["switch-to-latest", "flat-map", "concat"])
        let all = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(OperatorDescription.catalogJSON(limits: ComposerLimits()).utf8)) as? [String: Any])
        let everyPreset = try XCTUnwrap(all["presets"] as? [[String: Any]])
        XCTAssertEqual(everyPreset.map { $0["name"] as? String }, PipelineDefinition.presets.map(\.name))
        for preset in everyPreset {
            let definition = try JSONSerialization.data(withJSONObject: try XCTUnwrap(preset["definition"]))
            XCTAssertNoThrow(try PipelineDefinition(decoding: String(decoding: definition, as: UTF8.self)))
            XCTAssertNotNil(preset["title"] as? String)
            XCTAssertNotNil(preset["summary"] as? String)
        }
    }
}

import Foundation
import XCTest

@testable import PipelineWire

/// Reading definitions: every operator, its defaults, the normalised JSON.
final class PipelineDefinitionDecodingTests: XCTestCase {
    private func stages(_ stages: String...) throws(BadPipeline) -> PipelineDefinition {
        try PipelineDefinition(decoding: #"{"stages":[\#(stages.joined(separator: ","))]}"#)
    }

    /// One stage after a prefix that gives it `kind` values (the input is a string).
    private func stage(_ stage: String, after prefix: [String] = []) throws -> ComposedStage {
        let definition = try PipelineDefinition(decoding: #"{"stages":[\#((prefix + [stage]).joined(separator: ","))]}"#)
        return try XCTUnwrap(definition.stages.last)
    }

    func testReadsEveryOperator() throws {
        XCTAssertEqual(try stage(#"{"op":"throttle","ms":250,"latest":false}"#), .throttle(ms: 250, latest: false))
        XCTAssertEqual(try stage(#"{"op":"debounce","ms":0}"#), .debounce(ms: 0))
        XCTAssertEqual(try stage(#"{"op":"delay","ms":10000}"#), .delay(ms: 10000))
        XCTAssertEqual(try stage(#"{"op":"removeDuplicates"}"#), .removeDuplicates)
        XCTAssertEqual(try stage(#"{"op":"filter","minLength":3}"#), .filter(minLength: 3, maxLength: nil, prefix: nil))
        XCTAssertEqual(try stage(#"{"op":"filter","maxLength":9,"prefix":"he","minLength":2}"#), .filter(minLength: 2, maxLength: 9, prefix: "he"))
        for function in [MapFunction.lowercased, .uppercased, .trimmed, .count] {
            XCTAssertEqual(try stage(#"{"op":"map","fn":"\#(function.rawValue)"}"#), .map(function))
        }
        let lookup = #"{"op":"lookup","source":"github-user"}"#
        XCTAssertEqual(try stage(#"{"op":"map","fn":"login"}"#, after: [lookup]), .map(.login))
        XCTAssertEqual(try stage(#"{"op":"scan","fn":"count"}"#), .scan(.count))
        XCTAssertEqual(try stage(#"{"op":"scan","fn":"joined","separator":" | "}"#), .scan(.joined(separator: " | ")))
        XCTAssertEqual(try stage(#"{"op":"collect","count":3}"#), .collect(.count(3)))
        XCTAssertEqual(try stage(#"{"op":"collect","ms":1000}"#), .collect(.ms(1000)))
        XCTAssertEqual(try stage(#"{"op":"prepend","value":"héllo"}"#), .prepend(.string("héllo")))
        XCTAssertEqual(try stage(#"{"op":"prepend","value":-2.5}"#, after: [#"{"op":"map","fn":"count"}"#]), .prepend(.number(-2.5)))
        XCTAssertEqual(try stage(#"{"op":"lookup","source":"github-search","flatten":"concat"}"#), .lookup(.githubSearch, flatten: .concat))
        XCTAssertEqual(try stage(#"{"op":"lookup","source":"github-user","flatten":"flatMap","maxPublishers":8}"#),
                       .lookup(.githubUser, flatten: .flatMap(maxPublishers: 8)))
        XCTAssertEqual(try stage(#"{"op":"retry","times":2}"#, after: [lookup]), .retry(times: 2))
    }

    /// Defaults filled in, keys sorted, whole numbers as integers: the normalised JSON.
    func testNormalisesDefaultsAndKeyOrder() throws {
        let definition = try PipelineDefinition(decoding: """
            { "stages" : [ {"op":"throttle"}, {"op":"debounce"}, {"op":"delay"}, {"ms":1e3,"op":"collect"},
            {"op":"map","fn":"count"}, {"op":"prepend","value":4.0}, {"op":"scan","fn":"count"} ] }
            """)
        XCTAssertEqual(definition.stages, [
            .throttle(ms: 500, latest: true), .debounce(ms: 300), .delay(ms: 200), .collect(.ms(1000)), .map(.count),
            .prepend(.number(4)), .scan(.count),
        ])
        XCTAssertEqual(definition.json, #"{"stages":[{"latest":true,"ms":500,"op":"throttle"},{"ms":300,"op":"debounce"},"#
            + #"{"ms":200,"op":"delay"},{"ms":1000,"op":"collect"},{"fn":"count","op":"map"},{"op":"prepend","value":4},"#
            + #"{"fn":"count","op":"scan"}]}"#)
        XCTAssertEqual(try stages(#"{"op":"scan","fn":"joined"}"#).json, #"{"stages":[{"fn":"joined","op":"scan","separator":","}]}"#)
        XCTAssertEqual(try stages(#"{"source":"github-user","op":"lookup"}"#).json,
                       #"{"stages":[{"flatten":"switchToLatest","op":"lookup","source":"github-user"}]}"#)
        XCTAssertEqual(try stages(#"{"source":"github-user","op":"lookup","flatten":"flatMap"}"#).json,
                       #"{"stages":[{"flatten":"flatMap","maxPublishers":1,"op":"lookup","source":"github-user"}]}"#,
                       "maxPublishers always present for flatMap")
        XCTAssertEqual(try stages(#"{"prefix":"a\"\n","op":"filter"}"#).json, #"{"stages":[{"op":"filter","prefix":"a\"\n"}]}"#,
                       "filter's absent conditions are left out")
        XCTAssertEqual(ComposedStage.filter(minLength: 1, maxLength: 2, prefix: "p").json, #"{"maxLength":2,"minLength":1,"op":"filter","prefix":"p"}"#)
        XCTAssertEqual(ComposedStage.prepend(.number(0.1)).json, #"{"op":"prepend","value":0.1}"#)
        XCTAssertEqual(ComposedStage.prepend(.boolean(false)).json, #"{"op":"prepend","value":false}"#)
    }

    /// Every operator's normalised JSON reads back as the same stage, and is what Foundation
    /// writes with sorted keys.
    func testNormalisedJSONRoundTrips() throws {
        for preset in PipelineDefinition.presets {
            XCTAssertEqual(try PipelineDefinition(decoding: preset.definition.json), preset.definition, preset.name)
            XCTAssertEqual(try sortedKeys(preset.definition.json), preset.definition.json)
        }
        let definition = PipelineDefinition(stages: [
            .filter(minLength: 1, maxLength: 20, prefix: "x"), .map(.trimmed), .scan(.joined(separator: "\u{1}é")), .map(.uppercased),
            .map(.lowercased), .prepend(.string("start")), .lookup(.githubSearch, flatten: .flatMap(maxPublishers: 3)), .retry(times: 3),
        ])
        XCTAssertNoThrow(try definition.validate())
        XCTAssertEqual(try PipelineDefinition(decoding: definition.json), definition)
        XCTAssertEqual(try sortedKeys(definition.json), definition.json)
        XCTAssertEqual(definition.outputKind, .githubSearch)
        XCTAssertTrue(definition.hasLookup)
    }

    /// Whitespace around tokens and escapes in strings read as JSON reads them.
    func testReadsAnyValidJSONSpelling() throws {
        let definition = try PipelineDefinition(decoding: " {\n\"stages\":\t[ {\"op\":\"filter\",\"prefix\":\"\\u00e9\\/\"} ] }\r\n")
        XCTAssertEqual(definition.stages, [.filter(minLength: nil, maxLength: nil, prefix: "é/")])
    }

    /// The presets are valid and have the spec's names; github-user and search are the catalog's
    /// own compositions.
    func testPresets() throws {
        XCTAssertEqual(PipelineDefinition.presets.map(\.name),
                       ["github-user", "search", "throttle", "debounce", "switch-to-latest", "flat-map", "concat"])
        for preset in PipelineDefinition.presets {
            XCTAssertNoThrow(try preset.definition.validate(), preset.name)
        }
        let presets = Dictionary(uniqueKeysWithValues: PipelineDefinition.presets.map { ($0.name, $0.definition) })
        XCTAssertEqual(presets["github-user"]?.json,
                       #"{"stages":[{"latest":true,"ms":500,"op":"throttle"},{"op":"removeDuplicates"},{"flatten":"switchToLatest","op":"lookup","source":"github-user"}]}"#)
        XCTAssertEqual(presets["search"]?.stages, [.prepend(.string("")), .debounce(ms: 300), .removeDuplicates, .lookup(.githubSearch, flatten: .switchToLatest)])
        XCTAssertEqual(presets["github-user"]?.outputKind, .githubUser)
        XCTAssertEqual(presets["throttle"]?.outputKind, .string)
    }
}

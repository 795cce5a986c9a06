import XCTest

@testable import PipelineWire

/// What a definition is refused for, and where: the whole (stage nil) or its first offending
/// stage.
final class PipelineDefinitionRefusalTests: XCTestCase {
    private func refusal(_ json: String, limits: ComposerLimits = ComposerLimits()) -> BadPipeline? {
        do {
            _ = try PipelineDefinition(decoding: json, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    /// The refusal of a definition whose stages are `stages`.
    private func refusal(stages: String...) -> BadPipeline? {
        refusal(#"{"stages":[\#(stages.joined(separator: ","))]}"#)
    }

    func testTheWholeIsRefusedWithoutAStage() {
        let cases: [(String, String)] = [
            ("", "a pipeline definition must be a JSON object: {\"stages\":[…]}"),
            ("[]", "a pipeline definition must be a JSON object: {\"stages\":[…]}"),
            (#""github-user""#, "a pipeline definition must be a JSON object: {\"stages\":[…]}"),
            (#"{"stages":[{"op":"delay"}]"#, "a pipeline definition must be a JSON object: {\"stages\":[…]}"),
            ("{}", "a pipeline definition needs \"stages\": an array of stage objects"),
            (#"{"stages":{"op":"delay"}}"#, "a pipeline definition needs \"stages\": an array of stage objects"),
            (#"{"stages":null}"#, "a pipeline definition needs \"stages\": an array of stage objects"),
            (#"{"stages":[]}"#, "a pipeline needs at least one stage"),
            (#"{"stages":[{"op":"delay"}],"name":"x"}"#, "unknown member \"name\"; a pipeline definition has only \"stages\""),
            (#"{"stages":[{"op":"delay"}],"stages":[{"op":"delay"}]}"#, "\"stages\" is given twice"),
            (#"{"stages":[\#(Array(repeating: #"{"op":"bogus"}"#, count: 9).joined(separator: ","))]}"#, "too many stages: at most 8"),
        ]
        for (json, message) in cases {
            XCTAssertEqual(refusal(json), BadPipeline(stage: nil, message: message), json)
        }
    }

    /// Too many stages is told before any stage is read, however many there are.
    func testTooManyStagesIsToldFirst() {
        let many = #"{"stages":[\#(Array(repeating: "1", count: 100_000).joined(separator: ","))]}"#
        XCTAssertEqual(refusal(many)?.stage, nil)
        XCTAssertEqual(refusal(#"{"stages":[1,2]}"#, limits: ComposerLimits(maxStages: 1)), BadPipeline(stage: nil, message: "too many stages: at most 1"))
    }

    /// Each stage's own refusals: its shape, its op, its parameters' names and types.
    func testAStageIsRefusedAtItsIndex() {
        let ok = #"{"op":"removeDuplicates"}"#
        let cases: [(String, String)] = [
            ("3", "a stage must be a JSON object with an \"op\""),
            (#"[{"op":"delay"}]"#, "a stage must be a JSON object with an \"op\""),
            ("{}", "a stage needs a string \"op\""),
            (#"{"op":3}"#, "a stage needs a string \"op\""),
            (#"{"op":"Throttle"}"#, "unknown operator \"Throttle\"; expected one of throttle, debounce, delay, removeDuplicates, filter, map, scan, collect, prepend, lookup, retry"),
            (#"{"op":"delay","ms":1,"ms":2}"#, "\"ms\" is given twice"),
            (#"{"op":"delay","latest":true}"#, "delay: unknown parameter \"latest\"; expected ms"),
            (#"{"op":"removeDuplicates","by":"x"}"#, "removeDuplicates: unknown parameter \"by\"; it has none"),
            (#"{"op":"throttle","ms":"500"}"#, "throttle: \"ms\" must be an integer from 0 to 10000"),
            (#"{"op":"throttle","ms":1.5}"#, "throttle: \"ms\" must be an integer from 0 to 10000"),
            (#"{"op":"throttle","ms":null}"#, "throttle: \"ms\" must be an integer from 0 to 10000"),
            (#"{"op":"throttle","ms":1e30}"#, "throttle: \"ms\" must be an integer from 0 to 10000"),
            (#"{"op":"throttle","ms":10001}"#, "throttle: \"ms\" must be an integer from 0 to 10000"),
            (#"{"op":"debounce","ms":-1}"#, "debounce: \"ms\" must be an integer from 0 to 10000"),
            (#"{"op":"throttle","latest":1}"#, "throttle: \"latest\" must be true or false"),
            (#"{"op":"filter"}"#, "filter: needs at least one of \"minLength\", \"maxLength\" and \"prefix\""),
            (#"{"op":"filter","prefix":3}"#, "filter: \"prefix\" must be a string"),
            (#"{"op":"filter","minLength":4,"maxLength":3}"#, "filter: \"minLength\" is greater than \"maxLength\": nothing would pass"),
            (#"{"op":"filter","maxLength":257}"#, "filter: \"maxLength\" must be an integer from 0 to 256"),
            (#"{"op":"filter","prefix":"\#(String(repeating: "é", count: 257))"}"#, "filter: \"prefix\" must be at most 256 characters (Unicode scalars)"),
            (#"{"op":"map"}"#, "map: \"fn\" must be one of lowercased, uppercased, trimmed, count, login"),
            (#"{"op":"map","fn":"reversed"}"#, "map: \"fn\" must be one of lowercased, uppercased, trimmed, count, login"),
            (#"{"op":"scan","fn":"sum"}"#, "scan: \"fn\" must be one of count, joined"),
            (#"{"op":"scan","fn":"count","separator":","}"#, "scan: \"separator\" is only for \"fn\":\"joined\""),
            (#"{"op":"scan","fn":"joined","separator":1}"#, "scan: \"separator\" must be a string"),
            (#"{"op":"collect"}"#, "collect: needs exactly one of \"count\" and \"ms\""),
            (#"{"op":"collect","count":2,"ms":100}"#, "collect: needs exactly one of \"count\" and \"ms\""),
            (#"{"op":"collect","count":0}"#, "collect: \"count\" must be an integer from 1 to 100"),
            (#"{"op":"collect","ms":0}"#, "collect: \"ms\" must be an integer from 1 to 10000"),
            (#"{"op":"prepend"}"#, "prepend: needs a \"value\": a string, a number or a boolean"),
            (#"{"op":"prepend","value":null}"#, "prepend: needs a \"value\": a string, a number or a boolean"),
            (#"{"op":"prepend","value":["a"]}"#, "prepend: needs a \"value\": a string, a number or a boolean"),
            (#"{"op":"prepend","value":1e400}"#, "prepend: \"value\" must be a finite number"),
            (#"{"op":"lookup"}"#, "lookup: \"source\" must be one of github-user, github-search"),
            (#"{"op":"lookup","source":"github-user","flatten":"merge"}"#, "lookup: \"flatten\" must be one of switchToLatest, flatMap, concat"),
            (#"{"op":"lookup","source":"github-user","maxPublishers":2}"#, "lookup: \"maxPublishers\" is only for \"flatten\":\"flatMap\""),
            (#"{"op":"lookup","source":"github-user","flatten":"flatMap","maxPublishers":9}"#, "lookup: \"maxPublishers\" must be an integer from 1 to 8"),
            (#"{"op":"retry","times":2}"#, "retry: must come directly after a lookup (it retries that lookup's request)"),
        ]
        for (stage, message) in cases {
            XCTAssertEqual(refusal(stages: ok, ok, stage, ok), BadPipeline(stage: 2, message: message), stage)
            XCTAssertEqual(refusal(stages: stage), BadPipeline(stage: 0, message: message), stage)
        }
    }

    /// The first offending stage is named, even when a later one is wrong in another way.
    func testTheFirstOffendingStageIsNamed() {
        XCTAssertEqual(refusal(stages: #"{"op":"delay"}"#, #"{"op":"map","fn":"count"}"#, #"{"op":"map","fn":"uppercased"}"#, #"{"op":"nope"}"#)?.stage, 2)
        XCTAssertEqual(refusal(stages: #"{"op":"delay","ms":-5}"#, #"{"op":"nope"}"#)?.stage, 0)
    }

    /// Value kinds: a stage that does not accept what flows into it is refused there.
    func testKindsMustFit() {
        let cases: [([String], String)] = [
            ([#"{"op":"map","fn":"count"}"#, #"{"op":"map","fn":"uppercased"}"#], "map does not accept a number (it accepts string)"),
            ([#"{"op":"map","fn":"login"}"#], "map does not accept a string (it accepts github-user result, github-search result)"),
            ([#"{"op":"collect","count":2}"#, #"{"op":"filter","prefix":"a"}"#], "filter does not accept an array (it accepts string)"),
            ([#"{"op":"scan","fn":"count"}"#, #"{"op":"filter","minLength":1}"#], "filter does not accept a number (it accepts string, array)"),
            ([#"{"op":"scan","fn":"count"}"#, #"{"op":"prepend","value":"x"}"#], "prepend does not accept a number (it accepts string)"),
            ([#"{"op":"prepend","value":true}"#], "prepend does not accept a string (it accepts boolean)"),
            ([#"{"op":"map","fn":"count"}"#, #"{"op":"lookup","source":"github-user"}"#], "lookup does not accept a number (it accepts string)"),
            ([#"{"op":"lookup","source":"github-user"}"#, #"{"op":"scan","fn":"joined"}"#], "scan does not accept a github-user result (it accepts string)"),
        ]
        for (stages, message) in cases {
            let json = #"{"stages":[\#(stages.joined(separator: ","))]}"#
            XCTAssertEqual(refusal(json), BadPipeline(stage: stages.count - 1, message: message), json)
        }
        XCTAssertNil(refusal(stages: #"{"op":"map","fn":"count"}"#, #"{"op":"prepend","value":1}"#, #"{"op":"collect","count":2}"#, #"{"op":"map","fn":"count"}"#))
        XCTAssertNil(refusal(stages: #"{"op":"lookup","source":"github-search"}"#, #"{"op":"retry","times":1}"#, #"{"op":"map","fn":"login"}"#))
        XCTAssertEqual(refusal(stages: #"{"op":"lookup","source":"github-user"}"#, #"{"op":"delay"}"#, #"{"op":"retry","times":1}"#)?.stage, 2,
                       "retry directly after the lookup only")
    }

    func testLookupsAreLimited() {
        let lookup = #"{"op":"lookup","source":"github-user"}"#
        let login = #"{"op":"map","fn":"login"}"#
        XCTAssertNil(refusal(stages: lookup, login, lookup))
        XCTAssertEqual(refusal(stages: lookup, login, lookup, login, lookup), BadPipeline(stage: 4, message: "lookup: too many lookups: at most 2"))
    }

    /// Validating a definition built in Swift applies the same rules.
    func testValidateAppliesTheSameRules() {
        func refusal(_ stages: [ComposedStage], _ limits: ComposerLimits = ComposerLimits()) -> BadPipeline? {
            do {
                try PipelineDefinition(stages: stages).validate(limits: limits)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(refusal([]), BadPipeline(stage: nil, message: "a pipeline needs at least one stage"))
        XCTAssertEqual(refusal(Array(repeating: .removeDuplicates, count: 9)), BadPipeline(stage: nil, message: "too many stages: at most 8"))
        XCTAssertEqual(refusal([.delay(ms: 1), .prepend(.number(.infinity))]), BadPipeline(stage: 1, message: "prepend: \"value\" must be a finite number"))
        XCTAssertEqual(refusal([.prepend(.number(.nan))])?.stage, 0)
        XCTAssertEqual(refusal([.filter(minLength: nil, maxLength: nil, prefix: nil)])?.stage, 0)
        XCTAssertEqual(refusal([.throttle(ms: 600, latest: true)], ComposerLimits(maxMs: 500)),
                       BadPipeline(stage: 0, message: "throttle: \"ms\" must be an integer from 0 to 500"))
        XCTAssertEqual(refusal([.scan(.joined(separator: "abc"))], ComposerLimits(maxStringLength: 2))?.stage, 0)
        XCTAssertEqual(refusal([.collect(.ms(1))], ComposerLimits(maxMs: 0))?.stage, 0, "limits that leave no room refuse, never trap")
        XCTAssertEqual(refusal([.filter(minLength: nil, maxLength: nil, prefix: "")], ComposerLimits(maxStringLength: -1))?.stage, 0)
        XCTAssertNil(refusal([.filter(minLength: nil, maxLength: nil, prefix: "x")], ComposerLimits(maxStringLength: .max)))
        XCTAssertEqual(refusal([.lookup(.githubUser, flatten: .switchToLatest)], ComposerLimits(maxLookups: 0))?.stage, 0)
        XCTAssertEqual(refusal([.lookup(.githubUser, flatten: .flatMap(maxPublishers: 0))])?.stage, 0)
        XCTAssertEqual(refusal([.retry(times: 1)]), BadPipeline(stage: 0, message: "retry: must come directly after a lookup (it retries that lookup's request)"))
    }
}

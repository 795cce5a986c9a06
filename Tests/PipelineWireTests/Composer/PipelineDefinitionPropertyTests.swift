import HTTPTestSupport
import XCTest

@testable import PipelineWire

/// Random stage lists, seeded: every accepted definition is valid and reads back from its JSON as
/// itself; every refused one names a stage it has, or none.
final class PipelineDefinitionPropertyTests: XCTestCase {
    private static let ops = ComposedStage.ops + ["bogus", ""]
    private static let parameters = ["ms", "latest", "minLength", "maxLength", "prefix", "fn", "separator", "count", "value",
                                     "source", "flatten", "maxPublishers", "times", "extra"]
    private static let values = [
        "0", "1", "2", "3", "8", "9", "100", "101", "300", "10000", "10001", "-1", "1.5", "2.0", "1e3", "1e400", "true", "false",
        "null", #""""#, #""a""#, #""he""#, #""\u00e9\n""#, "[]", "{}", #""lowercased""#, #""uppercased""#, #""trimmed""#,
        #""count""#, #""login""#, #""joined""#, #""github-user""#, #""github-search""#, #""switchToLatest""#, #""flatMap""#,
        #""concat""#,
    ]

    private func randomStage(_ random: inout SeededGenerator) -> String {
        if Int.random(in: 0 ..< 40, using: &random) == 0 { return ["1", "[]", "null", #""x""#].randomElement(using: &random)! }
        let op = Self.ops.randomElement(using: &random)!
        var members = [#""op":"\#(op)""#]
        for _ in 0 ..< Int.random(in: 0 ... 3, using: &random) {
            // Mostly the operator's own parameters, sometimes any.
            let own = StageReader.parameters[op] ?? []
            let name = own.isEmpty || Int.random(in: 0 ..< 5, using: &random) == 0
                ? Self.parameters.randomElement(using: &random)! : own.randomElement(using: &random)!
            members.append(#""\#(name)":\#(Self.values.randomElement(using: &random)!)"#)
        }
        return "{" + members.shuffled(using: &random).joined(separator: ",") + "}"
    }

    func testDecodedDefinitionsRoundTripOrNameTheirStage() throws {
        var random = SeededGenerator(seed: 32)
        var accepted = 0
        var refusedAt = Set<Int?>()
        for _ in 0 ..< 20_000 {
            let count = Int.random(in: 0 ... 10, using: &random) / (Bool.random(using: &random) ? 1 : 3)
            let stages = (0 ..< count).map { _ in randomStage(&random) }
            let json = #"{"stages":[\#(stages.joined(separator: ","))]}"#
            do {
                let definition = try PipelineDefinition(decoding: json)
                accepted += 1
                XCTAssertEqual(definition.stages.count, count, json)
                XCTAssertNoThrow(try definition.validate(), json)
                XCTAssertEqual(try PipelineDefinition(decoding: definition.json), definition, json)
                XCTAssertEqual(definition.json, PipelineDefinition(stages: definition.stages).json)
            } catch {
                refusedAt.insert(error.stage)
                if let stage = error.stage {
                    XCTAssertTrue((0 ..< count).contains(stage), "\(json): \(error)")
                } else {
                    XCTAssertTrue(count == 0 || count > 8, "\(json): \(error)")
                }
                XCTAssertFalse(error.message.isEmpty)
            }
        }
        XCTAssertGreaterThan(accepted, 300, "the generator reaches valid definitions")
        XCTAssertTrue(refusedAt.isSuperset(of: [nil, 0, 1, 2]), "\(refusedAt)")
    }

    private func randomStage(swift random: inout SeededGenerator) -> ComposedStage {
        func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        func text() -> String { ["", "a", "é,", String(repeating: "x", count: int(250 ... 260))].randomElement(using: &random)! }
        switch int(0 ... 10) {
        case 0: return .throttle(ms: int(-2 ... 10_002), latest: .random(using: &random))
        case 1: return .debounce(ms: int(-2 ... 10_002))
        case 2: return .delay(ms: int(-2 ... 10_002))
        case 3: return .removeDuplicates
        case 4: return .filter(minLength: Bool.random(using: &random) ? int(-1 ... 300) : nil,
                               maxLength: Bool.random(using: &random) ? int(-1 ... 300) : nil,
                               prefix: Bool.random(using: &random) ? text() : nil)
        case 5: return .map([MapFunction.lowercased, .uppercased, .trimmed, .count, .login].randomElement(using: &random)!)
        case 6: return .scan(Bool.random(using: &random) ? .count : .joined(separator: text()))
        case 7: return .collect(Bool.random(using: &random) ? .count(int(-1 ... 102)) : .ms(int(-1 ... 10_002)))
        case 8: return .prepend([.string(text()), .number(Double(int(-5 ... 5)) / 4), .boolean(true)].randomElement(using: &random)!)
        case 9: return .lookup(.random(using: &random) ? .githubUser : .githubSearch,
                               flatten: [.switchToLatest, .concat, .flatMap(maxPublishers: int(0 ... 9))].randomElement(using: &random)!)
        default: return .retry(times: int(0 ... 101))
        }
    }

    /// A definition built in Swift validates exactly when its JSON reads back as itself, and is
    /// refused at the same stage with the same message otherwise.
    func testValidateAgreesWithDecoding() {
        var random = SeededGenerator(seed: 0x32)
        var valid = 0
        for _ in 0 ..< 20_000 {
            let definition = PipelineDefinition(stages: (0 ..< Int.random(in: 0 ... 9, using: &random)).map { _ in randomStage(swift: &random) })
            let validated = Result { () throws(BadPipeline) in try definition.validate() }
            let decoded = Result { () throws(BadPipeline) in try PipelineDefinition(decoding: definition.json) }
            switch (validated, decoded) {
            case (.success, .success(let read)):
                valid += 1
                XCTAssertEqual(read, definition, definition.json)
            case (.failure(let refusal), .failure(let readRefusal)):
                XCTAssertEqual(refusal, readRefusal, definition.json)
            default:
                XCTFail("\(definition.json): validate \(validated), decoding \(decoded)")
            }
        }
        XCTAssertGreaterThan(valid, 500)
    }
}

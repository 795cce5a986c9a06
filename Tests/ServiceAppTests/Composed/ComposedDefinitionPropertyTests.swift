import Dispatch
import FakeGithub
import Foundation
import GithubProxy
import HTTPTestSupport
import Locking
import PipelineWire
@testable import ServiceApp
import StreamCore
import XCTest

/// Random definitions, some within the limits and some not: every accepted one builds, runs on
/// virtual time and writes well-formed events (its `hello` first, its activity balanced); every
/// refused one names a stage it has, or none.
final class ComposedDefinitionPropertyTests: EndToEndTestCase {
    private var client: GithubClient!

    override func setUpWithError() throws {
        try super.setUpWithError()
        client = GithubClient(configuration: .init(baseURL: fakeURL))
    }

    func testEveryAcceptedDefinitionRunsAndEveryRefusedOneNamesItsStage() throws {
        var random = SeededGenerator(seed: 32)
        let limits = ComposerLimits(maxMs: 2_000, maxCount: 6)
        var (accepted, refused) = (0, 0)
        for _ in 0..<300 {
            let stages = (0..<Int.random(in: 0...10, using: &random)).map { _ in Self.stage(&random, limits: limits) }
            let definition = PipelineDefinition(stages: stages)
            do {
                try definition.validate(limits: limits)
            } catch {
                refused += 1
                if let stage = error.stage { XCTAssertTrue(stages.indices.contains(stage), "\(error) for \(stages)") }
                // Read from its JSON, it is refused the same way.
                XCTAssertThrowsError(try PipelineDefinition(decoding: definition.json, limits: limits))
                continue
            }
            accepted += 1
            try run(definition, limits: limits, random: &random)
        }
        XCTAssertGreaterThan(accepted, 30)
        XCTAssertGreaterThan(refused, 30)
    }

    private func run(_ definition: PipelineDefinition, limits: ComposerLimits, random: inout SeededGenerator) throws {
        let scheduler = DispatchQueue.test
        let events = Box<[String]>([])
        let instance = ComposedInstance.start(
            definition: definition, limits: limits, client: client, searchPerPage: 5, scheduler: scheduler.eraseToAnyScheduler(),
            quota: nil, output: PipelineInstance.Output(event: { event in events.mutate { $0.append(event) } }, trace: { _ in })
        )
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            instance.receive(["", "he", "heckj", "Swift ", "nosuch-user", "a,b"].randomElement(using: &random)!)
            scheduler.advance(by: .milliseconds(Int.random(in: 0...700, using: &random)))
        }
        scheduler.advance(by: .seconds(30))
        let balanced = waitUntil(timeout: 10) {
            let written = events.value
            return written.count { $0 == #"{"active":true,"type":"activity"}"# } == written.count { $0 == #"{"active":false,"type":"activity"}"# }
        }
        instance.cancel()
        let written = events.value
        XCTAssertTrue(balanced, "\(definition.json): \(written)")
        XCTAssertEqual(written.first, ComposedEvent.hello(definition).json)
        for event in written {
            let object = try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any]
            let type = object?["type"] as? String
            XCTAssertTrue(["hello", "value", "activity", "result", "search"].contains(type), "\(definition.json): \(event)")
        }
    }

    /// A stage with parameters mostly within `limits`, sometimes just outside them.
    private static func stage(_ random: inout SeededGenerator, limits: ComposerLimits) -> ComposedStage {
        func ms() -> Int { Int.random(in: -1...(limits.maxMs + 1), using: &random) }
        func count() -> Int { Int.random(in: 0...(limits.maxCount + 1), using: &random) }
        func text() -> String { ["", ",", "he", String(repeating: "x", count: limits.maxStringLength + 1)].randomElement(using: &random)! }
        switch Int.random(in: 0..<15, using: &random) {
        case 0: return .throttle(ms: ms(), latest: Bool.random(using: &random))
        case 1: return .debounce(ms: ms())
        case 2: return .delay(ms: ms())
        case 3: return .removeDuplicates
        case 4: return .filter(minLength: Bool.random(using: &random) ? count() : nil, maxLength: Bool.random(using: &random) ? count() : nil,
                               prefix: Bool.random(using: &random) ? text() : nil)
        case 5: return .map([.lowercased, .uppercased, .trimmed, .count, .login].randomElement(using: &random)!)
        case 6: return .scan(Bool.random(using: &random) ? .count : .joined(separator: text()))
        case 7: return .collect(Bool.random(using: &random) ? .count(count()) : .ms(ms()))
        case 8: return .prepend([.string(text()), .number(Double(count())), .boolean(true)].randomElement(using: &random)!)
        case 9, 10, 11:
            let flatten: Flatten = [.switchToLatest, .concat, .flatMap(maxPublishers: Int.random(in: 0...(limits.maxPublishers + 1), using: &random))]
                .randomElement(using: &random)!
            return .lookup(Bool.random(using: &random) ? .githubUser : .githubSearch, flatten: flatten)
        case 12: return .retry(times: count())
        default: return .map(.trimmed)
        }
    }
}

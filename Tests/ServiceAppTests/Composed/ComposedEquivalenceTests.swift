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

/// The presets that rebuild a catalog pipeline from composed stages send what that pipeline's
/// endpoint sends: the same `activity` and `result` (or `search`) frames, in the same order, at
/// the same virtual times. Each side runs on its own virtual clock and its own GitHub client (so
/// neither answers from the other's cache), against one fake GitHub; both are fed the same
/// keystrokes at the same virtual times.
final class ComposedEquivalenceTests: EndToEndTestCase {

    /// One side: its virtual clock and the frames written, each stamped with its virtual time.
    private final class Side: Sendable {
        let scheduler = DispatchQueue.test
        let client: GithubClient
        private let start: DispatchQueue.SchedulerTimeType
        private let frames = Locked<[String]>([])

        init(baseURL: URL) {
            client = GithubClient(configuration: .init(baseURL: baseURL))
            start = scheduler.now
        }

        var output: PipelineInstance.Output {
            PipelineInstance.Output(event: { [self] in record($0) }, trace: nil)
        }

        /// Records `frame` at the virtual time it was written (the hellos differ by design).
        func record(_ frame: String) {
            guard !frame.contains(#""type":"hello""#) else { return }
            let ms = start.distance(to: scheduler.now).magnitude / 1_000_000
            frames.withLock { $0.append("\(ms) ms \(frame)") }
        }

        var written: [String] { frames.withLock { $0 } }

        /// Whether every `activity:true` has had its `activity:false`.
        var settled: Bool {
            let frames = written
            return frames.count { $0.hasSuffix(#"{"active":true,"type":"activity"}"#) }
                == frames.count { $0.hasSuffix(#"{"active":false,"type":"activity"}"#) }
        }
    }

    /// Types `script` (a value, then the virtual milliseconds until the next) into both sides.
    /// Virtual time moves 10 ms at a time, and only once the upstream has answered every lookup
    /// begun (in real time): an answer is stamped with the step its request began in, on both
    /// sides alike.
    private func type(_ script: [(String, Int)], into sides: [(Side, PipelineInstance)]) {
        for (value, pause) in script {
            for (side, instance) in sides {
                instance.receive(value)
                XCTAssertTrue(waitUntil(timeout: 10) { side.settled }, "\(value): \(side.written)")
                for _ in 0..<(pause / 10) {
                    side.scheduler.advance(by: .milliseconds(10))
                    XCTAssertTrue(waitUntil(timeout: 10) { side.settled }, "\(value): \(side.written)")
                }
            }
        }
    }

    private static let typing: [(String, Int)] = [
        ("h", 40), ("he", 40), ("hec", 40), ("heck", 700), ("heckj", 700),
        ("nosuch-user-here", 700), ("he", 30), ("heckj", 1_000), ("heckj", 600), ("Heckj ", 700),
    ]

    func testTheGithubUserPresetSendsWhatWsSends() throws {
        let catalog = Side(baseURL: fakeURL), composed = Side(baseURL: fakeURL)
        let ws = GithubUserInstance.start(
            client: catalog.client, throttle: .milliseconds(500), minLength: 3,
            scheduler: catalog.scheduler.eraseToAnyScheduler(), quota: nil, output: catalog.output
        )
        let preset = try XCTUnwrap(PipelineDefinition.presets.first { $0.name == "github-user" }).definition
        XCTAssertEqual(preset.stages, [.throttle(ms: 500, latest: true), .removeDuplicates, .lookup(.githubUser, flatten: .switchToLatest)])
        let instance = ComposedInstance.start(
            definition: preset, limits: ComposerLimits(), client: composed.client, searchPerPage: 10,
            scheduler: composed.scheduler.eraseToAnyScheduler(), quota: nil, output: composed.output
        )
        defer { ws.cancel(); instance.cancel() }

        type(Self.typing, into: [(catalog, ws), (composed, instance)])

        XCTAssertEqual(composed.written, catalog.written)
        let results = catalog.written.filter { $0.contains(#""type":"result""#) }
        XCTAssertTrue(results.contains { $0.contains(#""query":"heckj","status":"found""#) }, "\(results)")
        XCTAssertTrue(results.contains { $0.contains(#""status":"not_found""#) }, "\(results)")
        XCTAssertTrue(results.contains { $0.contains(#""status":"too_short""#) }, "\(results)")
    }

    func testTheSearchPresetSendsWhatWsSearchSendsWithoutRefresh() throws {
        let catalog = Side(baseURL: fakeURL), composed = Side(baseURL: fakeURL)
        let settings = SearchPipeline.Settings()
        let search = SearchInstance.start(
            client: catalog.client, settings: settings, scheduler: catalog.scheduler.eraseToAnyScheduler(), quota: nil,
            output: catalog.output
        )
        let preset = try XCTUnwrap(PipelineDefinition.presets.first { $0.name == "search" }).definition
        let instance = ComposedInstance.start(
            definition: preset, limits: ComposerLimits(), client: composed.client, searchPerPage: settings.perPage,
            scheduler: composed.scheduler.eraseToAnyScheduler(), quota: nil, output: composed.output
        )
        defer { search.cancel(); instance.cancel() }

        type([("", 400), ("s", 100), ("sw", 100), ("swi", 400), ("swift", 400), ("swift", 50), ("he", 400), ("", 400)],
             into: [(catalog, search), (composed, instance)])

        XCTAssertEqual(composed.written, catalog.written)
        XCTAssertTrue(catalog.written.contains { $0.contains(#""query":"swift""#) }, "\(catalog.written)")
    }
}

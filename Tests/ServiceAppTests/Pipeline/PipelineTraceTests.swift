import FakeGithub
import Foundation
import GithubProxy
@testable import ServiceApp
import StreamCore
import XCTest

/// `?trace=1` on virtual time: the seed's username trace gives the exact events per stage, and
/// tracing changes nothing else the pipeline sends.
final class PipelineTraceTests: XCTestCase {
    private var fake: FakeGithub!
    private var baseURL: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        fake = FakeGithub()
        baseURL = try fake.start()
    }

    override func tearDown() {
        fake.stop()
        super.tearDown()
    }

    /// Everything one pipeline wrote, in order: its events' JSON and the trace lines.
    private final class Log: @unchecked Sendable {
        // Sendable: `lines` is guarded by `lock`.
        private let lock = NSLock()
        private var stored: [String] = []
        func append(_ line: String) { lock.withLock { stored.append(line) } }
        var lines: [String] { lock.withLock { stored } }
    }

    /// Types the book's trace — h, he, hec, heck, heckj, one value per 600 ms (past the 500 ms
    /// throttle window) — waiting for each result; returns everything written.
    private func run(tracing: Bool) throws -> [String] {
        let scheduler = DispatchQueue.test
        let log = Log()
        let client = GithubClient(configuration: .init(baseURL: baseURL))  // a cold cache per run
        let tracer = tracing ? PipelineTracer(scheduler: scheduler.eraseToAnyScheduler()) { log.append($0) } : nil
        let pipeline = GithubUserPipeline(
            client: client, throttle: .milliseconds(500), scheduler: scheduler.eraseToAnyScheduler(), tracer: tracer,
            write: { log.append($0.json) }
        )
        defer { pipeline.cancel() }
        for (index, value) in ["h", "he", "hec", "heck", "heckj"].enumerated() {
            pipeline.input.send(value)
            scheduler.advance()
            let deadline = Date().addingTimeInterval(10)
            while !log.lines.contains(where: { $0.contains(#""query":"\#(value)""#) && $0.contains(#""type":"result""#) }),
                  Date() < deadline { usleep(2_000) }
            XCTAssertTrue(log.lines.contains { $0.contains(#""type":"result""#) && $0.contains(#""query":"\#(value)""#) }, "result \(index)")
            scheduler.advance(by: .milliseconds(600))
        }
        return log.lines
    }

    func testTheSeedsUsernameTraceStageByStage() throws {
        let lines = try run(tracing: true)
        let traces = lines.compactMap { line -> [String: Any]? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["type"] as? String == "trace" else { return nil }
            return object
        }
        func stage(_ name: String) -> [String] {
            traces.filter { $0["stage"] as? String == name }.map { trace in
                let t = trace["t"] as? Double ?? -1
                var text = "\(Int(t)) \(trace["event"] as? String ?? "?")"
                if let value = trace["value"] as? String { text += " \(value)" }
                if let value = trace["value"] as? [String: Any] { text += " \(value["query"] ?? "") \(value["status"] ?? "")" }
                return text
            }
        }
        let typed = ["0 value h", "600 value he", "1200 value hec", "1800 value heck", "2400 value heckj"]
        XCTAssertEqual(stage("input"), ["0 subscription"] + typed)
        XCTAssertEqual(stage("throttle"), ["0 subscription"] + typed, "a value per window passes at once")
        XCTAssertEqual(stage("removeDuplicates"), ["0 subscription"] + typed)
        XCTAssertEqual(stage("lookup"), [
            "0 subscription", "0 value h too_short", "0 completion",
            "600 subscription", "600 value he too_short", "600 completion",
            "1200 subscription", "1200 value hec found", "1200 completion",
            "1800 subscription", "1800 value heck found", "1800 completion",
            "2400 subscription", "2400 value heckj found", "2400 completion",
        ])
        XCTAssertEqual(stage("switchToLatest"), ["0 subscription", "0 value h too_short", "600 value he too_short",
                                                 "1200 value hec found", "1800 value heck found", "2400 value heckj found"])
        let times = traces.compactMap { $0["t"] as? Double }
        XCTAssertEqual(times, times.sorted(), "t never goes down")
    }

    func testTracesOffSendExactlyTheSameEvents() throws {
        let traced = try run(tracing: true).filter { !$0.contains(#""type":"trace""#) }
        let plain = try run(tracing: false)
        XCTAssertFalse(plain.contains { $0.contains(#""type":"trace""#) })
        XCTAssertEqual(traced, plain)
    }
}

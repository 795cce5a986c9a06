import FakeGithub
import Foundation
import GithubProxy
@testable import ServiceApp
import StreamCore
import XCTest

/// The `/ws` pipeline on virtual time, for the case issue #16's soak reported as a "missing final
/// result": the same name typed twice in a row, the second time entirely inside the throttle
/// window its first final value opened.
final class GithubUserPipelineTests: XCTestCase {
    private var fake: FakeGithub!
    private let scheduler = DispatchQueue.test
    private let results = ResultLog()
    private var pipeline: GithubUserPipeline!

    override func setUpWithError() throws {
        try super.setUpWithError()
        fake = FakeGithub()
        let client = GithubClient(configuration: .init(baseURL: try fake.start()))
        let results = self.results
        pipeline = GithubUserPipeline(
            client: client, throttle: .milliseconds(500), scheduler: scheduler.eraseToAnyScheduler(),
            write: { event in
                switch event {
                case .result(let result): results.append(result.query)
                case .activity(let active): results.append(active ? "activity:true" : "activity:false")
                default: break
                }
            }
        )
    }

    override func tearDown() {
        pipeline.cancel()
        fake.stop()
        super.tearDown()
    }

    /// Waits (real time, for the fake upstream) until `count` events were written.
    private func waitForEvents(_ count: Int, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(10)
        while results.all.count < count && Date() < deadline { usleep(2_000) }
        XCTAssertEqual(results.all.count, count, "events: \(results.all)", file: file, line: line)
    }

    /// `heckj` is looked up and answered; 100 ms later the user types it again from scratch,
    /// all within the window: the throttle releases `heckj` again at 500 ms and removeDuplicates
    /// drops it (the seed's pipeline). No new result, no new request — and the last result still
    /// names the last value, which is what the contract guarantees. (The load tool expected a
    /// fresh result and counted the burst as missing.)
    func testTheSameNameRetypedWithinTheWindowCollapsesIntoTheResultAlreadySent() {
        pipeline.input.send("heckj")
        scheduler.advance()
        waitForEvents(3)
        scheduler.advance(by: .milliseconds(100))
        for value in ["h", "he", "hec", "heck", "heckj"] {
            pipeline.input.send(value)
            scheduler.advance(by: .milliseconds(20))
        }
        // The window ends at 500 ms: `heckj` is released again. A lookup would begin right here,
        // on this thread (activity:true), and a too_short answer would be written here too.
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(results.all, ["activity:true", "heckj", "activity:false"])
        XCTAssertEqual(results.all.filter { !$0.hasPrefix("activity") }.last, "heckj", "the last result names the last input value")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1)
    }

    /// The same retyping after the window: `h` is released at once (too_short), so `heckj`
    /// differs from the previous value and is looked up again — answered from the cache while
    /// GitHub's `max-age` holds (no upstream request, so no activity).
    func testTheSameNameRetypedAfterTheWindowIsAnsweredAgain() {
        pipeline.input.send("heckj")
        scheduler.advance()
        waitForEvents(3)
        scheduler.advance(by: .milliseconds(600))
        pipeline.input.send("h")
        scheduler.advance()
        XCTAssertEqual(results.all.last, "h", "released at once: too_short")
        for value in ["he", "hec", "heck", "heckj"] {
            scheduler.advance(by: .milliseconds(20))
            pipeline.input.send(value)
        }
        scheduler.advance(by: .seconds(1))
        waitForEvents(5)
        XCTAssertEqual(results.all, ["activity:true", "heckj", "activity:false", "h", "heckj"])
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1)
    }
}

/// The queries of the results a pipeline wrote, from any thread.
private final class ResultLog: @unchecked Sendable {
    // Sendable: `queries` is guarded by `lock`.
    private let lock = NSLock()
    private var queries: [String] = []
    func append(_ query: String) { lock.withLock { queries.append(query) } }
    var all: [String] { lock.withLock { queries } }
}

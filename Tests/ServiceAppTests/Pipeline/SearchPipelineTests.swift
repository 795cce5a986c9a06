import FakeGithub
import Foundation
import GithubProxy
import HTTPTestSupport
@testable import ServiceApp
import StreamCore
import XCTest

/// The `/ws/search` pipeline on virtual time (debounce, refresh delay) with real searches
/// against FakeGithub on loopback.
final class SearchPipelineTests: XCTestCase {
    private var fake: FakeGithub!
    private var client: GithubClient!
    private let scheduler = DispatchQueue.test
    private let events = EventLog()
    private var pipeline: SearchPipeline!

    override func setUpWithError() throws {
        try super.setUpWithError()
        fake = FakeGithub()
        let baseURL = try fake.start()
        client = GithubClient(configuration: .init(baseURL: baseURL, retry: RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(10), jitter: 0)))
        let events = self.events
        pipeline = SearchPipeline(
            client: client, settings: .init(), scheduler: scheduler.eraseToAnyScheduler(), write: { events.append($0) }
        )
    }

    override func tearDown() {
        pipeline.cancel()
        fake.stop()
        super.tearDown()
    }

    private func send(_ frame: SearchFrame) { pipeline.receive(frame) { events.append($0) } }

    /// Waits (real time, for the upstream) until `count` search events have come.
    private func waitForSearches(_ count: Int, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(10)
        while events.searches.count < count && Date() < deadline { usleep(2_000) }
        XCTAssertEqual(events.searches.count, count, "search events", file: file, line: line)
    }

    /// Waits (real time) until `expected.count` activity events have come, then compares them.
    /// A search's `activity:false` is written after its result, on the upstream's thread (the
    /// result goes downstream before the completion that ends the activity), so a test that has
    /// just seen the result may not see the `false` yet.
    private func assertActivity(_ expected: [Bool], _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        _ = waitUntil(timeout: 10) { events.activity.count >= expected.count }
        XCTAssertEqual(events.activity, expected, message, file: file, line: line)
    }

    func testDebounceThenRefreshRepeatsTheLatestSearch() {
        for text in ["h", "he", "heck"] { send(.input(text)) }
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(events.searches.count, 0, "debounce: nothing before 300 ms of quiet")
        scheduler.advance(by: .milliseconds(1))
        waitForSearches(1)
        XCTAssertEqual(events.searches.first?.query, "heck")
        XCTAssertEqual(events.searches.first?.totalCount, 2)
        send(.refresh)
        XCTAssertEqual(events.refreshing, [true])
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(events.refreshing, [true], "the refresh shows for refreshDelayMs")
        scheduler.advance(by: .milliseconds(1))
        waitForSearches(2)
        XCTAssertEqual(events.refreshing, [true, false])
        XCTAssertEqual(events.searches.map(\.query), ["heck", "heck"], "a refresh repeats an unchanged text's search")
        XCTAssertEqual(fake.searchQueries, ["heck", "heck"])
        assertActivity([true, false, true, false])
    }

    /// The empty field's frame is the initial `""` going through the debounce like any text
    /// (the seed's `@Published` text, debounced): it comes once `debounceMs` pass without text,
    /// and text sooner replaces it. Issue #31: the docs said it always comes at start.
    func testTheEmptyFieldsFrameComesOnlyAfterAQuietDebounceWindow() {
        scheduler.advance(by: .milliseconds(200))
        send(.input("heck"))
        scheduler.advance(by: .milliseconds(300))
        waitForSearches(1)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(events.searches.map(\.query), ["heck"], "text 200 ms after the start: no empty frame, ever")

        let quiet = EventLog()
        let untouched = SearchPipeline(
            client: client, settings: .init(), scheduler: scheduler.eraseToAnyScheduler(), write: { quiet.append($0) })
        defer { untouched.cancel() }
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(quiet.searches.count, 0, "the debounce holds the empty text too")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertTrue(waitUntil(timeout: 10) { quiet.searches.count == 1 })
        XCTAssertEqual(quiet.searches.map(\.status), [.empty], "debounceMs of quiet: the empty field's frame")
    }

    func testRefreshBeforeAnyInputSearchesTheEmptyTextWithoutAnUpstreamCall() {
        send(.refresh)
        scheduler.advance(by: .milliseconds(300))
        waitForSearches(2)
        XCTAssertEqual(events.searches.map(\.status), [.empty, .empty], "the initial text, then the refresh")
        XCTAssertEqual(events.refreshing, [true, false])
        XCTAssertEqual(fake.searchQueries, [])
        XCTAssertEqual(events.activity, [])
    }

    func testRefreshWhileASearchIsInFlightSupersedesItAndRefreshingStillEnds() {
        fake.scriptSearch(.delay(.milliseconds(5_000)))
        send(.input("heck"))
        scheduler.advance(by: .milliseconds(300))
        let deadline = Date().addingTimeInterval(10)
        while fake.searchQueries.isEmpty && Date() < deadline { usleep(2_000) }
        XCTAssertEqual(events.activity, [true], "the first search is in flight")
        send(.refresh)
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(events.refreshing, [true, false])
        waitForSearches(1)
        XCTAssertEqual(events.searches.map(\.query), ["heck"], "the superseded search is never reported")
        XCTAssertEqual(fake.searchQueries, ["heck", "heck"])
        assertActivity([true, false, true, false], "the superseded search's activity ends first")
    }

    func testFastTypingMakesOneUpstreamSearch() {
        for text in ["s", "sw", "swi", "swif", "swift"] {
            send(.input(text))
            scheduler.advance(by: .milliseconds(100))
        }
        scheduler.advance(by: .milliseconds(200))
        waitForSearches(1)
        XCTAssertEqual(fake.searchQueries, ["swift"])
        XCTAssertEqual(events.searches.first?.status, .ok)
        XCTAssertEqual(events.searches.first?.totalCount, 0)
    }

    func testTheSameTextTypedAgainIsNotSearchedAgainButARefreshIs() {
        send(.input("heck"))
        scheduler.advance(by: .milliseconds(300))
        waitForSearches(1)
        send(.input("hec"))
        send(.input("heck"))
        scheduler.advance(by: .milliseconds(300))
        XCTAssertEqual(fake.searchQueries, ["heck"], "removeDuplicates: the debounced text did not change")
    }

    func testUnreadableFrameAnswersAnErrorAndTheSessionGoesOn() {
        send(SearchFrame(text: #"{"type":"submit"}"#))
        send(SearchFrame(text: "{oops"))
        XCTAssertEqual(events.errors.count, 2)
        send(SearchFrame(text: "heck\n"))
        scheduler.advance(by: .milliseconds(300))
        waitForSearches(1)
        XCTAssertEqual(events.searches.first?.query, "heck")
    }

    func testFramesAreReadAsTheContractSays() {
        XCTAssertEqual(SearchFrame(text: #"{"type":"refresh"}"#), .refresh)
        XCTAssertEqual(SearchFrame(text: #"{"type":"input","value":"swift"}"#), .input("swift"))
        XCTAssertEqual(SearchFrame(text: "swift\r\n"), .input("swift"))
        XCTAssertEqual(SearchFrame(text: #"{"type":"input"}"#), .unreadable("an input message needs a string \"value\""))
    }

    func testEventsAreTheContractsJSON() {
        XCTAssertEqual(SearchEvent.hello(debounceMs: 300, refreshDelayMs: 300).json,
                       #"{"debounceMs":300,"pipeline":"github-search","refreshDelayMs":300,"type":"hello"}"#)
        XCTAssertEqual(SearchEvent.refreshing(active: true).json, #"{"active":true,"type":"refreshing"}"#)
        let item = GithubSearchItem(login: "heckj", id: 43388, avatarURL: "https://a/u/1", htmlURL: "https://github.com/heckj")
        XCTAssertEqual(SearchEvent.search(SearchResult(query: "heck", status: .ok, totalCount: 1, items: [item])).json,
                       #"{"items":[{"avatar_url":"https://a/u/1","html_url":"https://github.com/heckj","id":43388,"login":"heckj"}],"query":"heck","status":"ok","total_count":1,"type":"search"}"#)
        XCTAssertEqual(SearchEvent.search(SearchResult(query: "", status: .empty)).json,
                       #"{"items":[],"query":"","status":"empty","total_count":0,"type":"search"}"#)
    }
}

/// The events a pipeline wrote, from any thread.
private final class EventLog: @unchecked Sendable {
    // Sendable: `events` is guarded by `lock`.
    private let lock = NSLock()
    private var events: [SearchEvent] = []

    func append(_ event: SearchEvent) { lock.withLock { events.append(event) } }

    var all: [SearchEvent] { lock.withLock { events } }
    var searches: [SearchResult] { all.compactMap { if case .search(let result) = $0 { result } else { nil } } }
    var refreshing: [Bool] { all.compactMap { if case .refreshing(let active) = $0 { active } else { nil } } }
    var activity: [Bool] { all.compactMap { if case .activity(let active) = $0 { active } else { nil } } }
    var errors: [String] { all.compactMap { if case .error(let code, _) = $0 { code } else { nil } } }
}

import HTTPTestSupport
import FakeGithub
import Foundation
import XCTest

/// `/ws/search` over a real WebSocket, with the debounce and refresh delay on virtual time and
/// real searches to FakeGithub.
final class SearchEndpointTests: EndToEndTestCase {
    func testTypeThenRefreshOverTheWire() throws {
        try startVirtualService()
        let client = try connect("/ws/search")
        XCTAssertEqual(client.hello?.raw, #"{"debounceMs":300,"pipeline":"github-search","refreshDelayMs":300,"type":"hello"}"#)

        try client.input("heck")
        try client.barrier()
        scheduler.advance(by: .milliseconds(300))
        let first = try pump(client) { $0.type == "search" }
        XCTAssertEqual(first.query, "heck")
        XCTAssertEqual(first.status, "ok")
        XCTAssertEqual(first.total_count, 2)
        XCTAssertEqual(first.items?.map(\.login), ["heckj", "heck"])
        XCTAssertEqual(first.items?.first?.html_url, "https://github.com/heckj")

        try client.sendText(#"{"type":"refresh"}"#)
        try client.barrier()
        scheduler.advance(by: .milliseconds(300))
        let second = try pump(client) { $0.type == "search" }
        XCTAssertEqual(second.query, "heck")
        try pump(client) { $0.isActivity && $0.active == false }  // a search's activity ends after its result
        let refreshing = client.events.filter { $0.type == "refreshing" }.compactMap(\.active)
        XCTAssertEqual(refreshing, [true, false])
        assertActivityBalanced(client.activity)
        XCTAssertEqual(fake.searchQueries, ["heck", "heck"])
    }

    func testPlainTextFramesAndBadMessages() throws {
        try startVirtualService()
        let client = try connect("/ws/search")
        try client.sendText("{not json")
        let error = try client.waitFor { $0.type == "error" }
        XCTAssertEqual(error.code, "bad_message")
        try client.sendText("hec\n")
        try client.barrier()
        scheduler.advance(by: .milliseconds(300))
        let search = try pump(client) { $0.type == "search" }
        XCTAssertEqual(search.query, "hec")
        XCTAssertEqual(search.total_count, 3)
    }
}

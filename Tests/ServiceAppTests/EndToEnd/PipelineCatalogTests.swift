import HTTPTestSupport
import Foundation
import XCTest

/// `GET /api/pipelines` lists every pipeline from the registry, and each one's page and
/// WebSocket answer.
final class PipelineCatalogTests: EndToEndTestCase {
    private struct Entry: Decodable, Equatable {
        let name: String, path: String, page: String, stages: [String]
    }

    func testCatalogListsEveryPipelineAndEachIsServed() throws {
        try startService()
        let response = try get("/api/pipelines")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        let entries = try JSONDecoder().decode([Entry].self, from: Data(response.body))
        XCTAssertEqual(entries.map(\.name), ["github-user", "github-search", "form"])
        XCTAssertEqual(entries.first, Entry(
            name: "github-user", path: "/ws", page: "/", stages: ["input", "throttle", "removeDuplicates", "lookup", "switchToLatest"]))
        for entry in entries {
            let page = try get(entry.page)
            XCTAssertEqual(page.status, 200, entry.page)
            XCTAssertTrue(page.text.contains(#"<a href="/search">"#), entry.page)
            let client = try connect(entry.path)
            XCTAssertEqual(client.hello?.pipeline, entry.name, entry.path)
        }
    }
}

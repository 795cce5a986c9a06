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
        // docs/protocol.md's example is the first entry as sent, keys sorted (issue #31: the
        // docs showed name, path, page, stages).
        let protocolDoc = try String(
            contentsOf: ChildProcess.packageRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let example = try XCTUnwrap(
            protocolDoc.components(separatedBy: "the pipeline catalog: `").dropFirst().first?.components(separatedBy: ", …]").first)
        XCTAssertTrue(response.text.hasPrefix(example), "\(example)\nis not how\n\(response.text)\nbegins")
        for entry in entries {
            let page = try get(entry.page)
            XCTAssertEqual(page.status, 200, entry.page)
            XCTAssertTrue(page.text.contains(#"<a href="/search">"#), entry.page)
            let client = try connect(entry.path)
            XCTAssertEqual(client.hello?.pipeline, entry.name, entry.path)
        }
    }
}

import Foundation
import XCTest

@testable import ServiceApp

/// The pages' client (`PipelineClientScript`, `GET /pipelines.js`) run by Node on a virtual clock
/// against a scripted fake WebSocket (`EndToEnd/Scripts/pipeline_client_test.js`): the frames it sends, the
/// demand window, reconnecting with doubling back-off and resubscribing with the field's value,
/// completions and refusals shown and restarted, traces outside demand, frames it must ignore.
///
/// Needs `apt-get install -y nodejs`; skipped when missing, a failure when `CI` is set.
final class PipelineClientScriptTests: XCTestCase {
    func testTheClientOnAVirtualClock() throws {
        let node = try Self.requireNode()
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("pipelines-\(UUID().uuidString).js")
        try PipelineClientScript.script.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let test = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("EndToEnd/Scripts/pipeline_client_test.js")
        let process = try ChildProcess(URL(fileURLWithPath: node), [test.path, script.path])
        XCTAssertEqual(process.waitForExit(timeout: 30), 0, process.output)
        XCTAssertTrue(process.output.hasPrefix("ok "), process.output)
    }

    /// The version changes with the script, so a page never gets an older script from a cache.
    func testTheVersionIsADigestOfTheScript() {
        XCTAssertEqual(PipelineClientScript.version.count, 16)
        XCTAssertEqual(PipelineClientScript.versionedPath, "/pipelines.js?v=\(PipelineClientScript.version)")
        XCTAssertEqual(PipelineClientScript.cacheControl(query: "v=\(PipelineClientScript.version)"), "public, max-age=31536000, immutable")
        XCTAssertEqual(PipelineClientScript.cacheControl(query: nil), "no-cache")
        XCTAssertEqual(PipelineClientScript.cacheControl(query: "v=\(PipelineClientScript.version)&x=1"), "no-cache")
    }

    private static func requireNode() throws -> String {
        try ToolMissing.executable(["node", "nodejs"], name: "Node.js", install: "apt-get install -y nodejs")
    }
}

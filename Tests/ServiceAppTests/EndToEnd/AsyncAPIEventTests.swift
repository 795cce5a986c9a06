import Foundation
import XCTest

@testable import ServiceApp

/// Every event a real client receives on `/ws`, `/ws/search`, `/ws/form` and `/ws/pipelines` (every
/// frame, and each `event` frame's event against its pipeline's own schemas) is valid against
/// the service's own `/asyncapi.json` (Python's `jsonschema` and `websocket-client` drive the
/// sessions: `Scripts/validate_events.py`).
final class AsyncAPIEventTests: EndToEndTestCase {
    func testEveryEventMatchesTheAsyncAPIDocument() throws {
        let python = try requirePythonModules(["jsonschema", "websocket"])
        // Small mux limits, so the script sees an overflow and too_many_subscriptions.
        try startService { config in
            config.mux.maxPendingEvents = 2
            config.mux.maxSubscriptions = 4
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/validate_events.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, String(port)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("every event valid"), text)
    }

    func testDocumentListsEveryPipelineChannel() throws {
        try startService()
        let response = try get("/asyncapi.json")
        XCTAssertEqual(response.status, 200)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        XCTAssertEqual(document["asyncapi"] as? String, "3.0.0")
        let channels = try XCTUnwrap(document["channels"] as? [String: [String: Any]])
        XCTAssertEqual(Set(channels.values.compactMap { $0["address"] as? String }), ["/ws", "/ws/search", "/ws/form", "/ws/pipelines", "/ws/echo"])
    }

    /// `python3` when it can import `modules`; else a skip (a failure under CI) naming the install.
    private func requirePythonModules(_ modules: [String]) throws -> String {
        let python = "/usr/bin/env"
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["python3", "-c", "import " + modules.joined(separator: ", ")]
        check.standardError = FileHandle.nullDevice
        try check.run()
        check.waitUntilExit()
        if check.terminationStatus == 0 { return try XCTUnwrap(Self.which("python3")) }
        let message = "Python modules \(modules) are missing; install them with: pip install jsonschema websocket-client"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            throw ToolMissing(message: "CI is set, so this fails instead of skipping: \(message)")
        }
        throw XCTSkip(message)
    }

    private static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

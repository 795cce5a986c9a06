import Foundation
import XCTest

/// Drives one of the service's pages in a headless browser through its remote protocol
/// (`Scripts/firefox_bidi_drive.py`: Firefox over WebDriver BiDi; `Scripts/chromium_cdp_drive.py`:
/// Chromium over CDP), with `Scripts/socket_recorder.js` loaded into the page before the page's
/// own scripts: every WebSocket the page constructs, and the demand of `/ws/pipelines` on the wire
/// (`PageSockets`), come back with what the drive reported.
struct BrowserScriptDriver {
    enum Browser: String { case chromium, firefox }

    let browser: Browser
    let servicePort: UInt16

    /// Runs `drive` (see `ChromiumPageDriver` for its form) on `page`; saves a screenshot as
    /// `screenshot` under `.build/test-artifacts` when given.
    func run(page: String, drive: String, screenshot: String? = nil) throws -> (report: String, sockets: PageSockets) {
        let executable = try Self.require(browser)
        let driveFile = FileManager.default.temporaryDirectory.appendingPathComponent("drive-\(UUID().uuidString).js")
        try drive.write(to: driveFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: driveFile) }
        let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts")
        let script = scripts.appendingPathComponent(browser == .firefox ? "firefox_bidi_drive.py" : "chromium_cdp_drive.py")
        var arguments = ["python3", script.path, executable, "http://127.0.0.1:\(servicePort)\(page)", driveFile.path]
        if let screenshot { arguments.append(BrowserPageChromiumTests.artifacts.appendingPathComponent(screenshot).path) }
        arguments += ["--preload", scripts.appendingPathComponent("socket_recorder.js").path]
        let process = try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        XCTAssertEqual(process.waitForExit(timeout: 60), 0, process.output.suffix(2000).description)
        let lines = process.output.split(separator: "\n").map(String.init)
        let log = try XCTUnwrap(lines.last { $0.hasPrefix("sockets=") }, "no socket log: \(process.output.suffix(2000))")
        let sockets = try JSONDecoder().decode(PageSockets.self, from: Data(log.dropFirst("sockets=".count).utf8))
        let report = lines.last { !$0.hasPrefix("sockets=") } ?? ""
        return (report, sockets)
    }

    /// The browser's path, or a skip (a failure under CI) naming the install command.
    static func require(_ browser: Browser) throws -> String {
        switch browser {
        case .chromium: try BrowserPageChromiumTests.requireChromium()
        case .firefox: try ToolMissing.executable(["firefox-esr", "firefox"], name: "Firefox", install: "apt-get install -y firefox-esr")
        }
    }
}

/// What `Scripts/socket_recorder.js` saw in a page: the URL of every WebSocket it constructed, and
/// on them the `subscribe` and `request` frames sent and the `event` frames received (by the
/// event's own `type`); `maxOutstanding` is the most demand any subscription ever had requested
/// and not yet received; `unbounded` that some demand was not a number (`"unlimited"`).
struct PageSockets: Decodable, Equatable {
    var urls: [String]
    var subscribes: Int
    var requests: Int
    var events: Int
    var types: [String: Int]
    var maxOutstanding: Int
    var unbounded: Bool
}

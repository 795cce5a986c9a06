import Foundation
import XCTest

@testable import ServiceApp

/// Drives one of the service's pages in a headless browser through its remote protocol
/// (`Scripts/chromium_cdp_drive.py`: Chromium over CDP; `Scripts/firefox_bidi_drive.py`: Firefox
/// over WebDriver BiDi), in real time, with `Scripts/socket_recorder.js` loaded into the page
/// before the page's own scripts: every WebSocket the page constructs, and the demand of
/// `/ws/pipelines` on the wire and the page's Content-Security-Policy violations (`PageSockets`),
/// come back with what the drive reported.
///
/// A drive is the body of a function given `$` (the page's `getElementById`), `doc` (its
/// document) and `finish(text)`, run once the page's connection is open (`#connection`
/// `data-state="open"`); the run ends when it calls `finish`.
struct BrowserScriptDriver {
    enum Browser: String { case chromium, firefox }

    /// The size of the page (and of a screenshot), in CSS pixels.
    struct Viewport {
        var width: Int, height: Int
        static let desktop = Viewport(width: 1000, height: 700)
        /// A phone held upright (CSS pixels of a common 6.1" phone).
        static let phone = Viewport(width: 390, height: 844)
    }

    let browser: Browser
    let servicePort: UInt16
    var viewport = Viewport.desktop
    /// How long the drive may take before it reports `timeout`.
    var timeout: TimeInterval = 20

    /// Runs `drive` on `page`; saves a screenshot as `screenshot` under `.build/test-artifacts`
    /// when given.
    func run(page: String, drive: String, screenshot: String? = nil) throws -> (report: String, sockets: PageSockets) {
        let executable = try Self.require(browser)
        let driveFile = FileManager.default.temporaryDirectory.appendingPathComponent("drive-\(UUID().uuidString).js")
        try drive.write(to: driveFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: driveFile) }
        let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts")
        let script = scripts.appendingPathComponent(browser == .firefox ? "firefox_bidi_drive.py" : "chromium_cdp_drive.py")
        var arguments = [
            "python3", script.path, executable, "http://127.0.0.1:\(servicePort)\(page)", driveFile.path,
            "--preload", scripts.appendingPathComponent("socket_recorder.js").path,
            "--viewport", "\(viewport.width)x\(viewport.height)", "--timeout", String(Int(timeout)),
        ]
        if let screenshot {
            let file = BrowserPageChromiumTests.artifacts.appendingPathComponent(screenshot)
            try? FileManager.default.removeItem(at: file)
            arguments += ["--screenshot", file.path]
        }
        let process = try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        XCTAssertEqual(process.waitForExit(timeout: timeout + 60), 0, process.output.suffix(2000).description)
        let lines = process.output.split(separator: "\n").map(String.init)
        let log = try XCTUnwrap(lines.last { $0.hasPrefix("sockets=") }, "no socket log: \(process.output.suffix(2000))")
        let sockets = try JSONDecoder().decode(PageSockets.self, from: Data(log.dropFirst("sockets=".count).utf8))
        let report = try XCTUnwrap(lines.last { !$0.hasPrefix("sockets=") }, "the page never reported: \(process.output.suffix(2000))")
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
/// and not yet received; `unbounded` that some demand was not a number (`"unlimited"`);
/// `violations` what the page's Content-Security-Policy blocked.
struct PageSockets: Decodable, Equatable {
    var urls: [String]
    var subscribes: Int
    var requests: Int
    var events: Int
    var types: [String: Int]
    var maxOutstanding: Int
    var unbounded: Bool
    /// What the page's Content-Security-Policy blocked: `directive blocked-URI` each.
    var violations: [String]
}

extension EndToEndTestCase {
    /// Runs `drive` on `page` of the service in `browser`, and checks the page talked to the
    /// service over one socket: it constructed exactly one WebSocket, to `/ws/pipelines`, the
    /// service accepted exactly that one session and no other, the page subscribed once, and its
    /// demand stayed within the window. Returns what the drive reported.
    func drivePage(
        _ page: String, in browser: BrowserScriptDriver.Browser, drive: String, screenshot: String? = nil,
        viewport: BrowserScriptDriver.Viewport = .desktop, file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        var driver = BrowserScriptDriver(browser: browser, servicePort: port)
        driver.viewport = viewport
        let (report, sockets) = try assertOneMultiplexedSocket(file: file, line: line) {
            try driver.run(page: page, drive: drive, screenshot: screenshot)
        }
        assertOneSubscriptionWithinTheWindow(sockets, file: file, line: line)
        return report
    }

    /// One socket, to `/ws/pipelines` on the service, one `subscribe`, finite demand, at most the
    /// window outstanding at any time, and events received.
    func assertOneSubscriptionWithinTheWindow(_ sockets: PageSockets, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(sockets.urls, ["ws://127.0.0.1:\(port)/ws/pipelines"], "the sockets the page constructed", file: file, line: line)
        XCTAssertEqual(sockets.subscribes, 1, "\(sockets)", file: file, line: line)
        XCTAssertFalse(sockets.unbounded, "every demand a number: \(sockets)", file: file, line: line)
        XCTAssertLessThanOrEqual(sockets.maxOutstanding, PipelineClientScript.demandWindow, "\(sockets)", file: file, line: line)
        XCTAssertGreaterThan(sockets.events, 0, "\(sockets)", file: file, line: line)
        XCTAssertEqual(sockets.violations, [], "Content-Security-Policy violations", file: file, line: line)
    }
}

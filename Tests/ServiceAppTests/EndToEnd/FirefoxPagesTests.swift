import Foundation
import XCTest

@testable import ServiceApp

/// The three pages in headless Firefox (Debian's `firefox-esr`, driven over WebDriver BiDi by
/// `Scripts/firefox_bidi_drive.py`, no geckodriver), with the same drives and expectations as the
/// Chromium tests. Screenshots go to `.build/test-artifacts`.
final class FirefoxPagesTests: EndToEndTestCase {
    func testUserLookupPage() throws {
        try startService { $0.throttle = .milliseconds(50) }
        let seen = try drive("/", BrowserPageChromiumTests.drive, screenshot: "firefox-service-page.png")
        XCTAssertTrue(seen.contains("seen=h>too_short>unknown,he>too_short>unknown,hec>found>3,heck>found>6,heckj>found>69"), seen)
        XCTAssertTrue(seen.contains("login=heckj"), seen)
        XCTAssertTrue(seen.contains("spinner=hidden"), seen)
    }

    func testSearchPage() throws {
        try startService { $0.search.debounceMs = 50; $0.search.refreshDelayMs = 100 }
        let report = try drive("/search", PipelinePagesChromiumTests.searchDrive, screenshot: "firefox-search-page.png")
        XCTAssertEqual(report, "results=heckj+heck total=2 refreshed=yes after=heckj+heck")
    }

    func testFormPage() throws {
        try startService()
        let report = try drive("/form", PipelinePagesChromiumTests.formDrive, screenshot: "firefox-form-page.png")
        XCTAssertEqual(report, "start:disabled,mismatch:disabled:values must match and have at least 5 characters,match:enabled status=submitted: joé")
    }

    /// Runs `drive` on `page` in Firefox; returns what it reported.
    private func drive(_ page: String, _ drive: String, screenshot: String) throws -> String {
        let firefox = try requireFirefox()
        let driveFile = FileManager.default.temporaryDirectory.appendingPathComponent("drive-\(UUID().uuidString).js")
        try drive.write(to: driveFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: driveFile) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/firefox_bidi_drive.py")
        let shot = BrowserPageChromiumTests.artifacts.appendingPathComponent(screenshot)
        let process = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, firefox, "http://127.0.0.1:\(port)\(page)", driveFile.path, shot.path]
        )
        XCTAssertEqual(process.waitForExit(timeout: 60), 0, process.output.suffix(2000).description)
        return process.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func requireFirefox() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["firefox-esr", "firefox"] {
            for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        let message = "Firefox is not installed; install it with: apt-get install -y firefox-esr"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            throw ToolMissing(message: "CI is set, so this fails instead of skipping: \(message)")
        }
        throw XCTSkip(message)
    }
}

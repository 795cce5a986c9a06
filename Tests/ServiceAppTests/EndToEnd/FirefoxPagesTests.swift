import Foundation
import XCTest

@testable import ServiceApp

/// The pages in headless Firefox (Debian's `firefox-esr`, driven over WebDriver BiDi by
/// `Scripts/firefox_bidi_drive.py`, no geckodriver), with the same drives and expectations as the
/// Chromium tests, each over one WebSocket: the page constructs exactly one, to `/ws/pipelines`
/// (`Scripts/socket_recorder.js`), and the service accepts exactly that one. Screenshots go to
/// `.build/test-artifacts`.
final class FirefoxPagesTests: EndToEndTestCase {
    func testUserLookupPage() throws {
        try startService { $0.throttle = .milliseconds(50) }
        let seen = try drive("/", BrowserPageChromiumTests.drive, screenshot: "firefox-service-page.png")
        XCTAssertTrue(seen.contains("seen=h>too_short>unknown,he>too_short>unknown,hec>found>3,heck>found>6,heckj>found>69"), seen)
        XCTAssertTrue(seen.contains("login=heckj"), seen)
        XCTAssertTrue(seen.contains("loaded=true"), "the fake's avatar, under the page's policy: \(seen)")
        XCTAssertTrue(seen.contains("spinner=hidden"), seen)
    }

    func testSearchPage() throws {
        try startService { $0.search.debounce = .milliseconds(50); $0.search.refreshDelay = .milliseconds(100) }
        let report = try drive("/search", PipelinePagesChromiumTests.searchDrive, screenshot: "firefox-search-page.png")
        XCTAssertEqual(report, "results=heckj+heck avatars/placeholders=0/2 total=2 refreshed=yes after=heckj+heck")
    }

    func testFormPage() throws {
        try startService()
        let report = try drive("/form", PipelinePagesChromiumTests.formDrive, screenshot: "firefox-form-page.png")
        XCTAssertEqual(report, "start:disabled,mismatch:disabled:values must match and have at least 5 characters,match:enabled status=submitted: joé")
    }

    func testPlaygroundPage() throws {
        try startService()
        let report = try drive(
            "/playground", PlaygroundChromiumTests.presetDrive(avatarOrigin: fakeURL.absoluteString), screenshot: "firefox-playground.png")
        XCTAssertTrue(report.contains("69 repos"), report)
        XCTAssertTrue(report.contains("avatar=fake loaded=true"), report)
        XCTAssertTrue(report.contains("lanes=input,0:throttle,1:removeDuplicates,2:lookup "), report)
    }

    /// Runs `drive` on `page` in Firefox; returns what it reported, having checked the page's sockets.
    private func drive(_ page: String, _ drive: String, screenshot: String) throws -> String {
        try drivePage(page, in: .firefox, drive: drive, screenshot: screenshot)
    }
}

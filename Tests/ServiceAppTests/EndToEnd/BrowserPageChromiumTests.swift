import Foundation
import XCTest

@testable import ServiceApp

/// Headless Chromium loads the service's page (`GET /`) backed by FakeGithub, types `heckj` into
/// `#username` letter by letter, and must show the avatar, the login and 69 repositories, over
/// one WebSocket, to `/ws/pipelines` (constructed in the page, accepted by the service).
///
/// Chromium is driven over the DevTools protocol (`BrowserScriptDriver`), without a WebDriver.
///
/// Needs `apt-get install -y chromium`; skipped when missing, a failure when `CI` is set.
final class BrowserPageChromiumTests: EndToEndTestCase {
    private static let install = "apt-get install -y chromium"

    /// Types `heckj` letter by letter, each letter once the previous one's result is shown, then
    /// waits for the spinner to stop.
    static let drive = #"""
        var field = $("username"), word = "heckj", typed = 0, seen = [];
        function type() {
          typed += 1;
          field.value = word.slice(0, typed);
          field.dispatchEvent(new Event("input", { bubbles: true }));
        }
        function check() {
          var status = $("status").textContent;
          var value = word.slice(0, typed);
          if (typed > 0 && status.slice(-(value.length + 2)) === ": " + value) {
            seen.push(value + ">" + $("status").getAttribute("data-status") + ">" + $("repos").textContent);
            if (typed < word.length) { type(); return; }
            // The result comes before the lookup's activity:false: wait for the spinner to stop.
            new MutationObserver(done).observe($("spinner"), { attributes: true });
            done();
          }
        }
        function done() {
          if (!$("spinner").hidden) { return; }
          var avatar = $("avatar");
          // The fake's avatar: wait until it has loaded (or failed).
          if (avatar.getAttribute("src") && !avatar.complete) {
            avatar.addEventListener("load", done);
            avatar.addEventListener("error", done);
            return;
          }
          finish("seen=" + seen.join(",") + " repos=" + $("repos").textContent
            + " login=" + $("login").textContent + " name=" + $("name").textContent
            + " avatar=" + ($("avatar").getAttribute("src") || "none") + " loaded=" + ($("avatar").naturalWidth > 0) + " spinner=hidden");
        }
        new MutationObserver(check).observe($("status"), { childList: true, characterData: true, subtree: true });
        type();
        """#

    func testPageShowsTheUserTypedIntoTheField() throws {
        try startService { $0.throttle = .milliseconds(50) }
        let seen = try drivePage("/", in: .chromium, drive: Self.drive, screenshot: "chromium-service-page.png")
        XCTAssertTrue(seen.contains("seen=h>too_short>unknown,he>too_short>unknown,hec>found>3,heck>found>6,heckj>found>69"), seen)
        XCTAssertTrue(seen.contains("repos=69"), seen)
        XCTAssertTrue(seen.contains("login=heckj"), seen)
        XCTAssertTrue(seen.contains("name=Joe Heck"), seen)
        // The fake's own avatar, allowed by the page's policy (the API's origin), loaded.
        XCTAssertTrue(seen.contains("avatar=\(fakeURL.absoluteString)/avatars/u/43388?v=4"), seen)
        XCTAssertTrue(seen.contains("loaded=true"), seen)
        XCTAssertTrue(seen.contains("spinner=hidden"), seen)
        XCTAssertEqual(upstreamLogins, ["hec", "heck", "heckj"])
        let png = (try? Data(contentsOf: Self.artifacts.appendingPathComponent("chromium-service-page.png"))) ?? Data()
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "no PNG")
    }

    /// Chromium's path, or a skip (a failure under CI) naming the install command.
    static func requireChromium() throws -> String {
        try ToolMissing.executable(["chromium", "chromium-browser", "google-chrome"], name: "Chromium", install: install)
    }

    /// `.build/test-artifacts` (not committed).
    static var artifacts: URL {
        let url = ChildProcess.packageRoot.appendingPathComponent(".build/test-artifacts")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A tool a test needs is missing under CI.
struct ToolMissing: Error, CustomStringConvertible {
    var message: String
    var description: String { message }

    /// The path of the first of `names` on `PATH`; when there is none, a skip naming `install`,
    /// or under `CI` this error.
    static func executable(_ names: [String], name: String, install: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for executable in names {
            for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(executable)") {
                return "\(directory)/\(executable)"
            }
        }
        let message = "\(name) is not installed; install it with: \(install)"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            throw ToolMissing(message: "CI is set, so this fails instead of skipping: \(message)")
        }
        throw XCTSkip(message)
    }
}

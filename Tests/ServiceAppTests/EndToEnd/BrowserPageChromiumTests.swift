import Foundation
import HTTPServer
import XCTest

@testable import ServiceApp

/// Headless Chromium loads the service's page (`GET /`) backed by FakeGithub, types `heckj` into
/// `#username` letter by letter, and must show the avatar, the login and 69 repositories.
///
/// Chromium is driven without a WebDriver: a wrapper page from a second, test-only server loads
/// the real page in an iframe; Chromium runs with web security off, so the wrapper's script can
/// reach into the iframe, type (set the value, dispatch `input`) and read the result. The
/// wrapper reports what it saw to `/done` and into its own DOM, which `--dump-dom` prints.
/// Its last script, `/hold.js`, is answered only after `/done` (or 15 s), so the load event —
/// and with it the dump or the screenshot — comes after the result.
///
/// Needs `apt-get install -y chromium`; skipped when missing, a failure when `CI` is set.
final class BrowserPageChromiumTests: EndToEndTestCase {
    private static let install = "apt-get install -y chromium"

    static func wrapper(servicePort: UInt16) -> String {
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>Service page, driven</title>
        <style>body { margin: 0; font: 14px sans-serif; } iframe { width: 1000px; height: 680px; border: 0; }
        #report { padding: 4px 8px; background: #eee; }</style></head>
        <body>
        <div id="report">pending</div>
        <iframe id="app" src="http://127.0.0.1:\(servicePort)/"></iframe>
        <script>
        (function () {
          var frame = document.getElementById("app");
          var finished = false;
          function finish(text) {
            if (finished) { return; }
            finished = true;
            document.getElementById("report").textContent = text;
            fetch("/done?" + encodeURIComponent(text));
          }
          frame.addEventListener("load", function () {
            var doc;
            try { doc = frame.contentDocument; } catch (error) { finish("no-access " + error); return; }
            if (!doc || !doc.getElementById("username")) { finish("no-access"); return; }
            var $ = function (id) { return doc.getElementById(id); };
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
              finish("seen=" + seen.join(",") + " repos=" + $("repos").textContent
                + " login=" + $("login").textContent + " name=" + $("name").textContent
                + " avatar=" + ($("avatar").getAttribute("src") || "none") + " spinner=hidden");
            }
            new MutationObserver(check).observe($("status"), { childList: true, characterData: true, subtree: true });
            function onConnection() {
              if (typed === 0 && $("connection").getAttribute("data-state") === "open") { type(); }
            }
            new MutationObserver(onConnection).observe($("connection"), { attributes: true });
            onConnection();
          });
        })();
        </script>
        <script src="/hold.js"></script>
        </body></html>
        """
    }

    func testPageShowsTheUserTypedIntoTheField() throws {
        let chromium = try Self.requireChromium()
        try startService { $0.throttle = .milliseconds(50) }
        let report = Report()
        var router = Router()
        let page = Self.wrapper(servicePort: port)
        router.get("/wrapper", immediate: { _ in HTTPResponse(contentType: "text/html; charset=utf-8", text: page) })
        router.get("/done", immediate: { request in
            let query = request.query ?? ""
            report.set(query.removingPercentEncoding ?? query)
            return HTTPResponse(text: "ok")
        })
        router.get("/hold.js") { _ in
            for _ in 0 ..< 300 where report.value == nil { try? await Task.sleep(nanoseconds: 50_000_000) }
            return HTTPResponse(contentType: "text/javascript", text: "")
        }
        let helper = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, loopCount: 1), router: router)
        let helperPort = try helper.start().port
        defer {
            let done = DispatchSemaphore(value: 0)
            helper.shutdown { done.signal() }
            done.wait()
        }
        let url = "http://127.0.0.1:\(helperPort)/wrapper"
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let flags = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--disable-web-security", "--disable-site-isolation-trials",
            "--disable-features=IsolateOrigins,site-per-process", "--virtual-time-budget=10000",
        ]

        let dump = try ChildProcess(URL(fileURLWithPath: chromium), flags + ["--dump-dom", url])
        XCTAssertEqual(dump.waitForExit(timeout: 40), 0, dump.output.suffix(3000).description)
        let seen = try XCTUnwrap(report.value, "the page never reported: \(dump.output.suffix(3000))")
        XCTAssertTrue(seen.contains("seen=h>too_short>unknown,he>too_short>unknown,hec>found>3,heck>found>6,heckj>found>69"), seen)
        XCTAssertTrue(seen.contains("repos=69"), seen)
        XCTAssertTrue(seen.contains("login=heckj"), seen)
        XCTAssertTrue(seen.contains("name=Joe Heck"), seen)
        XCTAssertTrue(seen.contains("avatar=https://avatars.githubusercontent.com/u/43388?v=4"), seen)
        XCTAssertTrue(seen.contains("spinner=hidden"), seen)
        XCTAssertTrue(dump.output.contains("repos=69"), "the dumped DOM lacks the report")
        XCTAssertEqual(upstreamLogins, ["hec", "heck", "heckj"])

        // The same run again for a screenshot of the page with the result.
        report.set(nil)
        let screenshot = Self.artifacts.appendingPathComponent("chromium-service-page.png")
        try? FileManager.default.removeItem(at: screenshot)
        let shot = try ChildProcess(
            URL(fileURLWithPath: chromium), flags + ["--window-size=1000,720", "--screenshot=\(screenshot.path)", url]
        )
        XCTAssertEqual(shot.waitForExit(timeout: 40), 0, shot.output.suffix(3000).description)
        XCTAssertTrue(report.value?.contains("repos=69") ?? false, report.value ?? "no report")
        let png = (try? Data(contentsOf: screenshot)) ?? Data()
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "no PNG at \(screenshot.path)")
    }

    /// Chromium's path, or a skip (a failure under CI) naming the install command.
    static func requireChromium() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        let message = "Chromium is not installed; install it with: \(install)"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            throw ToolMissing(message: "CI is set, so this fails instead of skipping: \(message)")
        }
        throw XCTSkip(message)
    }

    /// `.build/test-artifacts` (not committed).
    static var artifacts: URL {
        let url = ChildProcess.packageRoot.appendingPathComponent(".build/test-artifacts")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// What the wrapper page reported to `/done`.
private final class Report: @unchecked Sendable {
    // Sendable: `text` is only touched under `lock`.
    private let lock = NSLock()
    private var text: String?

    var value: String? { lock.withLock { text } }
    func set(_ newValue: String?) { lock.withLock { text = newValue } }
}

/// A tool a test needs is missing under CI.
struct ToolMissing: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

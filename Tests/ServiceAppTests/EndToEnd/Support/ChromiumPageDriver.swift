import Foundation
import HTTPServer
import XCTest

/// Drives one of the service's pages in headless Chromium without a WebDriver: a wrapper page
/// from a test-only server loads the real page in an iframe; Chromium runs with web security off,
/// so the wrapper's script (`drive`) can reach into the iframe, type (set a value, dispatch
/// `input`), click, and read the result. `drive` is the body of a function given `$` (the
/// iframe's `getElementById`), `doc` (its document) and `finish(text)`, run once the page's
/// connection is open; `finish` reports to `/done` and into the wrapper's DOM. The wrapper's last
/// script, `/hold.js`, is answered only after `/done` (or 15 s), so Chromium's load event — and
/// with it the dump or the screenshot — comes after the result.
struct ChromiumPageDriver {
    /// The size of the page's frame (and of a screenshot).
    struct Viewport {
        var width: Int, height: Int
        static let desktop = Viewport(width: 1000, height: 700)
        /// A phone held upright (CSS pixels of a common 6.1" phone).
        static let phone = Viewport(width: 390, height: 844)
    }

    let chromium: String
    let servicePort: UInt16
    var viewport = Viewport.desktop
    /// Chromium's virtual time budget in ms: timers run as fast as the page is idle, and the dump
    /// or screenshot comes once it is spent. Nil: real time — the screenshot comes when the
    /// page has reported (its load event), so a `drive` that paces itself in real time is seen
    /// as a person would see it, with the server's clock and the page's in step.
    var virtualTimeBudgetMs: Int? = 10_000

    /// Runs `drive` on `page`; returns what it reported, and saves a screenshot as `screenshot`
    /// (under `.build/test-artifacts`) when given.
    func run(page: String, drive: String, screenshot: String? = nil, timeout: TimeInterval = 40) throws -> String {
        let report = Report()
        var router = Router()
        let wrapper = Self.wrapper(url: "http://127.0.0.1:\(servicePort)\(page)", drive: drive, viewport: viewport)
        router.get("/wrapper", immediate: { _ in HTTPResponse(contentType: "text/html; charset=utf-8", text: wrapper) })
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
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        var arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--disable-web-security", "--disable-site-isolation-trials",
            "--disable-features=IsolateOrigins,site-per-process",
        ]
        if let virtualTimeBudgetMs { arguments.append("--virtual-time-budget=\(virtualTimeBudgetMs)") }
        if let screenshot {
            let file = BrowserPageChromiumTests.artifacts.appendingPathComponent(screenshot)
            try? FileManager.default.removeItem(at: file)
            arguments += ["--window-size=\(viewport.width),\(viewport.height)", "--screenshot=\(file.path)"]
        } else {
            arguments += ["--dump-dom"]
        }
        let chromium = try ChildProcess(URL(fileURLWithPath: self.chromium), arguments + ["http://127.0.0.1:\(helperPort)/wrapper"])
        XCTAssertEqual(chromium.waitForExit(timeout: timeout), 0, chromium.output.suffix(3000).description)
        return try XCTUnwrap(report.value, "the page never reported: \(chromium.output.suffix(3000))")
    }

    /// The frame fills the window, so a screenshot is the page alone; the report line sits below
    /// it, out of the picture (it is in the `/done` request and the DOM dump).
    private static func wrapper(url: String, drive: String, viewport: Viewport) -> String {
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>Service page, driven</title>
        <style>body { margin: 0; font: 14px sans-serif; overflow: hidden; }
        iframe { display: block; width: \(viewport.width)px; height: \(viewport.height)px; border: 0; }
        #report { padding: 4px 8px; background: #eee; }</style></head>
        <body>
        <iframe id="app" src="\(url)"></iframe>
        <div id="report">pending</div>
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
            if (!doc || !doc.getElementById("connection")) { finish("no-access"); return; }
            var $ = function (id) { return doc.getElementById(id); };
            var started = false;
            function onConnection() {
              if (started || $("connection").getAttribute("data-state") !== "open") { return; }
              started = true;
              (function ($, doc, finish) {
        \(drive)
              })($, doc, finish);
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
}

/// What the wrapper page reported to `/done`.
private final class Report: @unchecked Sendable {
    // Sendable: `text` is only touched under `lock`.
    private let lock = NSLock()
    private var text: String?

    var value: String? { lock.withLock { text } }
    func set(_ newValue: String?) { lock.withLock { text = newValue } }
}

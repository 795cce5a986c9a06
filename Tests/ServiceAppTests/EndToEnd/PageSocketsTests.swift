import Foundation
import XCTest

@testable import ServiceApp

/// Which sockets the pages open, and the demand they keep outstanding, seen from inside the page
/// (`Scripts/socket_recorder.js`, loaded before the page's own scripts) and from the service
/// (`websocket_sessions_total` by path), in Chromium (over CDP) and Firefox (over BiDi).
final class PageSocketsTests: EndToEndTestCase {
    /// Every page, typed into with the drives of the Chromium and Firefox page tests, constructs
    /// one WebSocket, to `/ws/pipelines`, subscribes once, and never has more than the window
    /// outstanding.
    func testEveryPageOpensOneSocketToPipelinesInChromium() throws {
        try startService { $0.throttle = .milliseconds(50); $0.search.debounceMs = 50; $0.search.refreshDelayMs = 100 }
        let driver = BrowserScriptDriver(browser: .chromium, servicePort: port)
        for (page, drive, expected) in [
            ("/", BrowserPageChromiumTests.drive, "repos=69 login=heckj"),
            ("/search", PipelinePagesChromiumTests.searchDrive, "results=heckj+heck total=2 refreshed=yes after=heckj+heck"),
            ("/form", PipelinePagesChromiumTests.formDrive, "status=submitted: joé"),
        ] {
            let (report, sockets) = try assertOneMultiplexedSocket { try driver.run(page: page, drive: drive) }
            XCTAssertTrue(report.contains(expected), "\(page): \(report)")
            Self.assertOneSubscriptionWithinTheWindow(sockets, port: port)
        }
    }

    func testDemandWindowInChromium() throws {
        try assertDemandWindow(.chromium)
    }

    func testDemandWindowInFirefox() throws {
        try assertDemandWindow(.firefox)
    }

    /// Fills the form, then clicks Submit `clicks` times at once: the service answers each with a
    /// `submitted` event, more than the window, so the page gets them all only by topping its
    /// demand up as it draws them, never having more than the window outstanding.
    private func assertDemandWindow(_ browser: BrowserScriptDriver.Browser) throws {
        let clicks = 60, window = PipelineClientScript.demandWindow
        try startService()
        let drive = #"""
            function set(id, value) { $(id).value = value; $(id).dispatchEvent(new Event("input", { bubbles: true })); }
            set("value1", "joé"); set("value2", "secret"); set("value2_repeat", "secret");
            var clicked = false;
            new MutationObserver(function () {
              if (clicked || $("submit").disabled) { return; }
              clicked = true;
              for (var i = 0; i < \#(clicks); i += 1) { $("submit").click(); }
              var poll = setInterval(function () {
                var log = doc.defaultView.__socketLog;
                if ((log.types.submitted || 0) < \#(clicks)) { return; }
                clearInterval(poll);
                finish("submitted=" + log.types.submitted + " status=" + $("status").textContent);
              }, 50);
            }).observe($("submit"), { attributes: true });
            """#
        let driver = BrowserScriptDriver(browser: browser, servicePort: port)
        let (report, sockets) = try assertOneMultiplexedSocket { try driver.run(page: "/form", drive: drive) }
        XCTAssertEqual(report, "submitted=\(clicks) status=submitted: joé")
        Self.assertOneSubscriptionWithinTheWindow(sockets, port: port)
        XCTAssertGreaterThan(sockets.events, clicks, "hello, validations, submit states and every submitted: \(sockets)")
        XCTAssertEqual(sockets.maxOutstanding, window, "the first demand is the window, and the window is never exceeded: \(sockets)")
        // Topped up by half a window at a time: (events − window) / (window / 2) requests at least.
        XCTAssertGreaterThanOrEqual(sockets.requests, (sockets.events - window) / (window / 2), "\(sockets)")
    }

    /// One socket, to `/ws/pipelines` on the service, one `subscribe`, finite demand, at most the
    /// window outstanding at any time.
    static func assertOneSubscriptionWithinTheWindow(
        _ sockets: PageSockets, port: UInt16, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(sockets.urls, ["ws://127.0.0.1:\(port)/ws/pipelines"], "the sockets the page constructed", file: file, line: line)
        XCTAssertEqual(sockets.subscribes, 1, "\(sockets)", file: file, line: line)
        XCTAssertFalse(sockets.unbounded, "every demand a number: \(sockets)", file: file, line: line)
        XCTAssertLessThanOrEqual(sockets.maxOutstanding, PipelineClientScript.demandWindow, "\(sockets)", file: file, line: line)
        XCTAssertGreaterThan(sockets.events, 0, "\(sockets)", file: file, line: line)
    }
}

import Foundation
import XCTest

@testable import ServiceApp

/// The demand a page keeps outstanding, seen on the wire from inside the page
/// (`Scripts/socket_recorder.js`, loaded before the page's own scripts), in Chromium (over CDP)
/// and Firefox (over BiDi). Which sockets each page opens is checked by every page test
/// (`drivePage`).
final class PageSocketsTests: EndToEndTestCase {
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
        assertOneSubscriptionWithinTheWindow(sockets)
        XCTAssertGreaterThan(sockets.events, clicks, "hello, validations, submit states and every submitted: \(sockets)")
        XCTAssertEqual(sockets.maxOutstanding, window, "the first demand is the window, and the window is never exceeded: \(sockets)")
        // Topped up by half a window at a time: (events − window) / (window / 2) requests at least.
        XCTAssertGreaterThanOrEqual(sockets.requests, (sockets.events - window) / (window / 2), "\(sockets)")
    }
}

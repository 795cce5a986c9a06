import Foundation
import XCTest

@testable import ServiceApp

/// Headless Chromium on `/playground` (see `BrowserScriptDriver`), against the service and the
/// fake GitHub on loopback: the `github-user` preset typed into, with its result, the fake's
/// avatar loaded, and a live marble lane per stage; a definition shared by its URL; a refused
/// one shown at its stage. Each over one WebSocket, to `/ws/pipelines`, without a
/// Content-Security-Policy violation. Screenshots go to `.build/test-artifacts`.
final class PlaygroundChromiumTests: EndToEndTestCase {
    /// Loads the `github-user` preset (the page's first definition, so no new subscription), types
    /// `heckj`, and waits for its result with the avatar loaded and a value marble in every lane.
    static func presetDrive(avatarOrigin: String) -> String {
        #"""
        var field = $("input"), started = Date.now();
        function lanes() {
          return Array.prototype.map.call(doc.querySelectorAll("#marbles .lane"), function (lane) { return lane.getAttribute("data-stage"); });
        }
        function marbles(lane) { return doc.querySelectorAll('#marbles .marble[data-stage="' + lane + '"]').length; }
        function check() {
          var result = doc.querySelector('#outputs li[data-kind="result"]');
          if (!result || result.textContent.indexOf("heckj") < 0) { return false; }
          var img = result.querySelector("img");
          if (!img || !img.complete) { return false; }
          var names = lanes();
          if (names.length < 2 || !names.every(function (lane) { return marbles(lane) > 0; })) { return false; }
          finish("result=" + result.textContent + " avatar=" + (img.src.indexOf("\#(avatarOrigin)/avatars/u/43388") === 0 ? "fake" : img.src)
            + " loaded=" + (img.naturalWidth > 0) + " lanes=" + names.join(",")
            + " normalised=" + ($("normalised").textContent.indexOf('"flatten":"switchToLatest"') >= 0)
            + " pressed=" + doc.querySelector('#presets button[data-preset="github-user"]').getAttribute("aria-pressed")
            + " url=" + (location.hash.indexOf("#d=") === 0));
          return true;
        }
        var button = doc.querySelector('#presets button[data-preset="github-user"]');
        button.click();
        field.value = "heckj";
        field.dispatchEvent(new Event("input", { bubbles: true }));
        (function poll() { if (!check()) { setTimeout(poll, 50); } })();
        """#
    }

    /// A definition opened from its URL: `map` uppercased; typing `abc` outputs `"ABC"`.
    static let sharedDrive = #"""
        var field = $("input");
        field.value = "abc";
        field.dispatchEvent(new Event("input", { bubbles: true }));
        (function poll() {
          var value = doc.querySelector('#outputs li[data-kind="value"]');
          var lanes = Array.prototype.map.call(doc.querySelectorAll("#marbles .lane"), function (lane) { return lane.getAttribute("data-stage"); });
          if (!value || doc.querySelectorAll('#marbles .marble[data-stage="0:map"]').length === 0) { setTimeout(poll, 50); return; }
          finish("value=" + value.textContent + " lanes=" + lanes.join(",") + " stages=" + doc.querySelectorAll("#stages li.stage").length
            + " fn=" + $("stage-0-fn").value);
        })();
        """#

    /// A refused definition: the error comes next to stage 1, and the page stays connected.
    static let refusedDrive = #"""
        (function poll() {
          var item = doc.querySelector('#stages li.stage[data-index="1"]');
          var error = item && item.querySelector(".stage-error").textContent;
          if (!error) { setTimeout(poll, 50); return; }
          finish("refused=" + item.classList.contains("refused") + " status=" + $("status").textContent
            + " first=" + JSON.stringify(doc.querySelector('#stages li.stage[data-index="0"] .stage-error').textContent)
            + " connection=" + $("connection").getAttribute("data-state"));
        })();
        """#

    static func hash(_ definition: String) -> String {
        "#d=" + (definition.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    func testTheGithubUserPresetShowsTheUserItsAvatarAndALanePerStage() throws {
        try startService()
        let report = try drivePage(
            "/playground", in: .chromium, drive: Self.presetDrive(avatarOrigin: fakeURL.absoluteString),
            screenshot: "chromium-playground.png")
        XCTAssertTrue(report.contains("heckj"), report)
        XCTAssertTrue(report.contains("69 repos"), report)
        XCTAssertTrue(report.contains("avatar=fake loaded=true"), report)
        XCTAssertTrue(report.contains("lanes=input,0:throttle,1:removeDuplicates,2:lookup "), report)
        XCTAssertTrue(report.contains("normalised=true pressed=true url=true"), report)
        XCTAssertGreaterThan(fake.avatarRequestCount, 0, "the avatar came from the fake")
        XCTAssertEqual(upstreamLogins, ["heckj"])
    }

    func testADefinitionOpensFromItsURL() throws {
        try startService()
        let page = "/playground" + Self.hash(#"{"stages":[{"op":"map","fn":"uppercased"}]}"#)
        let report = try drivePage(page, in: .chromium, drive: Self.sharedDrive, screenshot: "chromium-playground-shared.png")
        XCTAssertEqual(report, #"value="ABC" lanes=input,0:map stages=1 fn=uppercased"#)
    }

    /// Refused (`ms` above `composer.maxMs`) at stage 1: shown there, not retried, and the page's
    /// socket stays open; no policy violation.
    func testARefusedDefinitionIsShownAtItsStage() throws {
        try startService()
        let page = "/playground" + Self.hash(#"{"stages":[{"op":"removeDuplicates"},{"op":"debounce","ms":100001}]}"#)
        let driver = BrowserScriptDriver(browser: .chromium, servicePort: port)
        let (report, sockets) = try driver.run(page: page, drive: Self.refusedDrive, screenshot: "chromium-playground-refused.png")
        XCTAssertTrue(report.hasPrefix("refused=true status=refused at stage 1 first=\"\" connection=open"), report)
        XCTAssertEqual(sockets.subscribes, 1, "a refused definition is not subscribed again")
        XCTAssertEqual(sockets.violations, [])
    }
}

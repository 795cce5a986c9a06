import Foundation
import XCTest

@testable import ServiceApp

/// Headless Chromium on `/search` and `/form` (see `BrowserScriptDriver`): type, refresh, fill
/// the form, and the submit button's state, each page over one WebSocket, to `/ws/pipelines`.
/// Screenshots go to `.build/test-artifacts`.
final class PipelinePagesChromiumTests: EndToEndTestCase {
    /// Types `heck` into the search field letter by letter, waits for its results, makes every
    /// avatar fail to load (issue #31: the page showed broken images offline), presses Refresh
    /// and waits for the indicator to show and go again.
    static let searchDrive = #"""
        var query = $("query"), typed = 0, word = "heck", refreshSeen = false;
        function type() { typed += 1; query.value = word.slice(0, typed); query.dispatchEvent(new Event("input", { bubbles: true })); if (typed < word.length) { setTimeout(type, 30); } }
        function results() { return Array.prototype.map.call(doc.querySelectorAll("#results li"), function (li) { return li.textContent; }).join("+"); }
        new MutationObserver(function () {
          if (!refreshSeen && typed === word.length && $("total").textContent === "2") {
            refreshSeen = true;
            var before = results();
            // Every avatar fails to load (as offline): each leaves a placeholder, as on "/".
            Array.prototype.forEach.call(doc.querySelectorAll("#results img"), function (img) { img.dispatchEvent(new Event("error")); });
            var degraded = doc.querySelectorAll("#results img").length + "/" + doc.querySelectorAll("#results li > .thumb.placeholder").length;
            new MutationObserver(function () {
              if ($("refreshing").hidden) { finish("results=" + before + " avatars/placeholders=" + degraded + " total=" + $("total").textContent + " refreshed=yes after=" + results()); }
            }).observe($("refreshing"), { attributes: true });
            $("refresh").click();
          }
        }).observe($("results"), { childList: true });
        type();
        """#

    /// Fills the form: submit stays disabled until both validations pass, then submits.
    static let formDrive = #"""
        var states = [];
        function set(id, value) { $(id).value = value; $(id).dispatchEvent(new Event("input", { bubbles: true })); }
        states.push("start:" + ($("submit").disabled ? "disabled" : "enabled"));
        set("value1", "joé");
        set("value2", "👍🏽 secret");
        set("value2_repeat", "👍🏽 secre");
        setTimeout(function () {
          states.push("mismatch:" + ($("submit").disabled ? "disabled" : "enabled") + ":" + $("value2-hint").textContent);
          new MutationObserver(function () {
            if (!$("submit").disabled) {
              states.push("match:enabled");
              new MutationObserver(function () { finish(states.join(",") + " status=" + $("status").textContent); })
                .observe($("status"), { childList: true, characterData: true, subtree: true });
              $("submit").click();
            }
          }).observe($("submit"), { attributes: true });
          set("value2_repeat", "👍🏽 secret");
        }, 500);
        """#

    func testSearchPageTypesAndRefreshes() throws {
        try startService { $0.search.debounce = .milliseconds(50); $0.search.refreshDelay = .milliseconds(100) }
        let report = try drivePage("/search", in: .chromium, drive: Self.searchDrive, screenshot: "chromium-search-page.png")
        XCTAssertEqual(report, "results=heckj+heck avatars/placeholders=0/2 total=2 refreshed=yes after=heckj+heck")
        XCTAssertEqual(fake.searchQueries.filter { $0 == "heck" }.count, 2, "the typed search and the refresh: \(fake.searchQueries)")
    }

    func testFormPageEnablesSubmitOnlyWhenValidAndSubmits() throws {
        try startService()
        let report = try drivePage("/form", in: .chromium, drive: Self.formDrive, screenshot: "chromium-form-page.png")
        XCTAssertEqual(report, "start:disabled,mismatch:disabled:values must match and have at least 5 characters,match:enabled status=submitted: joé")
    }
}

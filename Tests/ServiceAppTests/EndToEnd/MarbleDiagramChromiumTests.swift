import Foundation
import XCTest

@testable import ServiceApp

/// Headless Chromium on each pipeline page opened with `?trace=1`: the "show pipeline" switch is
/// on, the diagram has one lane per catalog stage, and the session's events appear as marbles.
/// Screenshots go to `.build/test-artifacts`.
final class MarbleDiagramChromiumTests: EndToEndTestCase {
    /// Sets each `fields` entry (id → text) as typing would, then after 1.5 s reports the lanes
    /// in order, whether marbles are drawn (each with its hover title), and whether the switch is
    /// on. Then it keeps editing the first field every 700 ms, so the screenshot — taken when
    /// Chromium's virtual time budget runs out, after older marbles scrolled away — has some.
    private static func drive(_ fields: [(String, String)]) -> String {
        let typing = fields.map { id, text in
            #"$("\#(id)").value = "\#(text)"; $("\#(id)").dispatchEvent(new Event("input", { bubbles: true }));"#
        }.joined(separator: "\n")
        return #"""
            \#(typing)
            setTimeout(function () {
              var lanes = Array.prototype.map.call(doc.querySelectorAll("#marbles g.lane"), function (lane) { return lane.getAttribute("data-stage"); });
              var values = doc.querySelectorAll("#marbles g.marble").length;
              var titled = doc.querySelectorAll("#marbles g.marble title").length;
              finish("switch=" + $("show-pipeline").checked + " visible=" + !$("marble-view").hidden + " lanes=" + lanes.join(",")
                + " marbles=" + (values > 0) + " titled=" + (titled === values));
              var field = $("\#(fields[0].0)"), base = field.value, count = 0;
              setInterval(function () {
                count += 1;
                field.value = count % 2 === 0 ? base : base.slice(0, -1);
                field.dispatchEvent(new Event("input", { bubbles: true }));
              }, 700);
            }, 1500);
            """#
    }

    private func check(page: String, pipeline: PipelineDescriptor, fields: [(String, String)], screenshot: String) throws {
        try startService { $0.search.debounceMs = 50 }
        let driver = ChromiumPageDriver(chromium: try BrowserPageChromiumTests.requireChromium(), servicePort: port)
        let report = try driver.run(page: page + "?trace=1", drive: Self.drive(fields), screenshot: screenshot)
        XCTAssertEqual(report, "switch=true visible=true lanes=\(pipeline.stages.joined(separator: ",")) marbles=true titled=true")
    }

    func testUserLookupPageDrawsEveryStage() throws {
        try check(page: "/", pipeline: .githubUser, fields: [("username", "heckj")], screenshot: "marbles-github-user.png")
    }

    func testSearchPageDrawsEveryStage() throws {
        try check(page: "/search", pipeline: .search, fields: [("query", "heck")], screenshot: "marbles-search.png")
    }

    func testFormPageDrawsEveryStage() throws {
        try check(page: "/form", pipeline: .form, fields: [("value1", "joé"), ("value2", "secret"), ("value2_repeat", "secret")],
                  screenshot: "marbles-form.png")
    }

    func testWithoutTraceTheDiagramIsHiddenAndEmpty() throws {
        try startService()
        let driver = ChromiumPageDriver(chromium: try BrowserPageChromiumTests.requireChromium(), servicePort: port)
        let report = try driver.run(page: "/", drive: Self.drive([("username", "heckj")]))
        XCTAssertEqual(report, "switch=false visible=false lanes=\(PipelineDescriptor.githubUser.stages.joined(separator: ",")) marbles=false titled=true")
    }
}

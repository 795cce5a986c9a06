import Foundation
import XCTest

@testable import ServiceApp

/// Headless Chromium on each pipeline page opened with `?trace=1`, typing as a person would, in
/// real time (the server's clock and the page's in step), over one `/ws/pipelines` socket: the
/// "show pipeline" switch is on, the diagram has one lane per catalog stage, every lane has
/// marbles, every mark has its hover title, tapping a marble shows its value and time,
/// superseded requests show their cancel, and
/// the diagram is drawn at the page's own pixel size without widening the page — on a desktop
/// and on a phone; "download SVG" gives a standalone copy of what is drawn. Screenshots go to `.build/test-artifacts` (the pictures in `docs/images`).
final class MarbleDiagramChromiumTests: EndToEndTestCase {
    /// One step of a scripted session: `afterMs` after the previous step, set the field `id` to
    /// `value` as typing would (an `input` event), or click `id` when `value` is nil.
    struct Step {
        let afterMs: Int, id: String, value: String?
        init(_ afterMs: Int, _ id: String, _ value: String? = nil) {
            self.afterMs = afterMs
            self.id = id
            self.value = value
        }
    }

    /// Types a word letter by letter, `everyMs` apart, into `id`; the first letter `afterMs` after
    /// the previous step.
    static func typing(_ word: String, into id: String, after afterMs: Int, every everyMs: Int) -> [Step] {
        word.indices.enumerated().map { index, end in
            Step(index == 0 ? afterMs : everyMs, id, String(word[...end]))
        }
    }

    /// The `drive` script: runs `steps`, waits `settleMs`, and reports
    /// what it shows (see `expected`); with `secret`, also whether the diagram's text (labels and
    /// titles) contains it.
    static func drive(_ steps: [Step], settleMs: Int, secret: String? = nil) -> String {
        let json = steps.map { step in
            #"{"after":\#(step.afterMs),"id":"\#(step.id)","value":\#(step.value.map { "\"\($0)\"" } ?? "null")}"#
        }.joined(separator: ",")
        return #"""
            var steps = [\#(json)];
            function step(index) {
              if (index === steps.length) { setTimeout(report, \#(settleMs)); return; }
              setTimeout(function () {
                var field = $(steps[index].id);
                if (steps[index].value === null) { field.click(); }
                else { field.value = steps[index].value; field.dispatchEvent(new Event("input", { bubbles: true })); }
                step(index + 1);
              }, steps[index].after);
            }
            function report() {
              var svg = $("marbles"), all = function (selector) { return Array.prototype.slice.call(doc.querySelectorAll(selector)); };
              var lanes = all("#marbles g.lane").map(function (lane) { return lane.getAttribute("data-stage"); });
              var empty = lanes.filter(function (stage) { return !doc.querySelector('#marbles g.marble[data-stage="' + stage + '"]'); });
              var marks = all("#marbles g.event"), titled = marks.filter(function (mark) { return mark.querySelector("title"); });
              var cancels = all('#marbles g.event[data-event="cancel"]').map(function (mark) { return mark.getAttribute("data-stage"); })
                .filter(function (stage, index, list) { return list.indexOf(stage) === index; });
              var exported = new DOMParser().parseFromString(doc.defaultView.marbles.snapshot(), "image/svg+xml");
              var exportedStyle = exported.querySelector("style") ? exported.querySelector("style").textContent : "";
              var export_ = exported.querySelector("parsererror") ? "unparsable"
                : exported.querySelectorAll("g.event").length !== marks.length ? "marks " + exported.querySelectorAll("g.event").length + "/" + marks.length
                : exportedStyle.indexOf("#marbles .marble circle") < 0 || exportedStyle.indexOf("var(") >= 0 ? "style"
                : $("marble-export").offsetParent === null ? "no link" : "ok";
              var last = all('#marbles g.marble[data-stage="' + lanes[lanes.length - 1] + '"]').pop();
              if (last) { last.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
              var tapped = $("marble-detail").textContent.replace(/ at [0-9]+(\.[0-9])? ms$/, " at T ms");
              var scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
              var root = doc.documentElement;
              finish("switch=" + $("show-pipeline").checked + " visible=" + !$("marble-view").hidden + " lanes=" + lanes.join(",")
                + " empty=" + empty.join(",") + " titled=" + (marks.length > 0 && titled.length === marks.length)
                + " cancels=" + cancels.join(",") + " tap=" + tapped + " scale=" + scale.toFixed(2) + " overflow=" + (root.scrollWidth > root.clientWidth)
                + " export=" + export_
                + \#(secret.map { #"" shows-secret=" + (svg.textContent.indexOf("\#($0)") >= 0)"# } ?? #""""#));
            }
            step(0);
            """#
    }

    /// What `drive` reports for `pipeline` with every lane holding marbles, cancels in the
    /// `cancels` lanes, and `tapped` under the diagram after a tap on the last lane's newest marble.
    static func expected(_ pipeline: PipelineDescriptor, cancels: [String], tapped: String) -> String {
        "switch=true visible=true lanes=\(pipeline.stages.joined(separator: ",")) empty= titled=true"
            + " cancels=\(cancels.joined(separator: ",")) tap=\(tapped) at T ms scale=1.00 overflow=false export=ok"
    }

    /// A desktop window just around each page's card (720 px wide while tracing), so the
    /// screenshots can go into the docs as they are.
    private static func desktop(height: Int) -> BrowserScriptDriver.Viewport { .init(width: 800, height: height) }

    /// The book's username, typed with a slow first answer for "heck": throttle drops "hec", the
    /// slow lookup of "heck" is superseded by "heckj" 1.3 s later (a cancel in the lookup lane),
    /// a later "heck" is answered at once, and a typo fixed within one window is dropped by
    /// removeDuplicates.
    static let userSession: [Step] = [
        Step(0, "username", "h"), Step(300, "username", "he"), Step(300, "username", "hec"), Step(300, "username", "heck"),
        Step(1_300, "username", "heckj"), Step(1_200, "username", "heck"), Step(2_600, "username", "heckj"),
        Step(200, "username", "heckjx"), Step(150, "username", "heckj"),
    ]

    func testUserLookupPageDrawsEveryStage() throws {
        try startService()
        fake.script("heck", .delay(.milliseconds(3_000)))
        let report = try drivePage(
            "/?trace=1", in: .chromium, drive: Self.drive(Self.userSession, settleMs: 900),
            screenshot: "marbles-github-user.png", viewport: Self.desktop(height: 770))
        XCTAssertEqual(report, Self.expected(.githubUser, cancels: ["lookup"], tapped: "switchToLatest value heckj · found"))
    }

    func testUserLookupPageOnAPhone() throws {
        try startService()
        fake.script("heck", .delay(.milliseconds(3_000)))
        let report = try drivePage(
            "/?trace=1", in: .chromium, drive: Self.drive(Self.userSession, settleMs: 900),
            screenshot: "marbles-github-user-phone.png", viewport: .phone)
        XCTAssertEqual(report, Self.expected(.githubUser, cancels: ["lookup"], tapped: "switchToLatest value heckj · found"))
    }

    /// Typing debounced into one search; a refresh while that search is slow supersedes it (a
    /// cancel in the search lane); more typing and another refresh.
    func testSearchPageDrawsEveryStage() throws {
        try startService()
        fake.scriptSearch(.delay(.milliseconds(3_000)))
        let steps = Self.typing("heck", into: "query", after: 300, every: 150) + [Step(450, "refresh")]
            + Self.typing("heckj", into: "query", after: 2_000, every: 150) + [Step(1_500, "refresh")]
        let report = try drivePage(
            "/search?trace=1", in: .chromium, drive: Self.drive(steps, settleMs: 900),
            screenshot: "marbles-search.png", viewport: Self.desktop(height: 900))
        XCTAssertEqual(report, Self.expected(.search, cancels: ["search"], tapped: "switchToLatest value heckj · ok"))
    }

    /// Each field typed letter by letter; the password's lanes show dots, as its fields do.
    func testFormPageDrawsEveryStage() throws {
        try startService()
        let steps = Self.typing("joé", into: "value1", after: 300, every: 300)
            + Self.typing("secret", into: "value2", after: 600, every: 200)
            + Self.typing("secret", into: "value2_repeat", after: 600, every: 200)
        let report = try drivePage(
            "/form?trace=1", in: .chromium, drive: Self.drive(steps, settleMs: 900, secret: "secret"),
            screenshot: "marbles-form.png", viewport: Self.desktop(height: 880))
        XCTAssertEqual(report, Self.expected(.form, cancels: [], tapped: "readyToSubmit value true") + " shows-secret=false", "the password is drawn masked")
    }

    func testWithoutTraceTheDiagramIsHiddenAndEmpty() throws {
        try startService()
        let drive = #"""
            $("username").value = "heckj";
            $("username").dispatchEvent(new Event("input", { bubbles: true }));
            var tries = 0, poll = setInterval(function () {
              tries += 1;
              if ($("login").textContent !== "heckj" && tries < 100) { return; }
              clearInterval(poll);
              var lanes = Array.prototype.map.call(doc.querySelectorAll("#marbles g.lane"), function (lane) { return lane.getAttribute("data-stage"); });
              finish("switch=" + $("show-pipeline").checked + " visible=" + !$("marble-view").hidden + " lanes=" + lanes.join(",")
                + " marks=" + doc.querySelectorAll("#marbles g.event").length + " result=" + $("login").textContent);
            }, 100);
            """#
        let report = try drivePage("/", in: .chromium, drive: drive)
        XCTAssertEqual(report, "switch=false visible=false lanes=\(PipelineDescriptor.githubUser.stages.joined(separator: ",")) marks=0 result=heckj")
    }
}

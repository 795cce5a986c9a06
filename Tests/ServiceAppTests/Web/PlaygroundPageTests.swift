import XCTest

@testable import ServiceApp

/// `/playground`'s markup and code speak the composed subscription's contract (issue #32): the
/// catalog from `/api/operators`, a definition object subscribed with traces, lanes named as
/// the traces name them, the definition in the URL, refusals by stage. (Well-formedness, the
/// policy and the links: `BrowserPageTests`.)
final class PlaygroundPageTests: XCTestCase {
    /// The ids the browser tests use.
    static let ids = [
        "presets", "preset-summary", "limits", "stages", "add-op", "add-stage", "definition-error", "share", "input", "spinner",
        "status", "normalised", "outputs", "connection", "marbles",
    ]

    private let html = PlaygroundPage.html(policy: .standard)

    func testThePageRunsItsCodeAndHasALiveDiagram() {
        XCTAssertTrue(html.contains(#"<body data-page="playground">"#))
        XCTAssertTrue(PageScript.served.source.contains(#"if (document.body.getAttribute("data-page") === "playground") {"#))
        XCTAssertTrue(html.contains(#"data-live="true""#), "the diagram is always shown")
        XCTAssertFalse(html.contains(#"id="show-pipeline""#), "no switch: the playground always traces")
        XCTAssertTrue(html.contains("<title>Pipeline playground</title>"))
    }

    /// The other pages keep their switch and their fixed lanes.
    func testTheOtherPagesDiagramsAreUnchanged() {
        let search = SearchPage.html(policy: .standard)
        XCTAssertTrue(search.contains(#"id="show-pipeline""#))
        XCTAssertFalse(search.contains("data-live"))
        XCTAssertTrue(MarbleDiagram.script.contains(#"svg.getAttribute("data-live") === "true""#))
        XCTAssertTrue(MarbleDiagram.script.contains("lanes: setLanes"))
    }

    func testTheScriptSpeaksTheComposedContract() {
        let script = PlaygroundPage.script
        XCTAssertTrue(script.contains(#"fetch("/api/operators""#), "the catalog")
        XCTAssertTrue(script.contains("pipelines.subscribe(JSON.parse(json), {"), "the definition object as the pipeline")
        XCTAssertTrue(script.contains("trace: true, onTrace: marbles.add"))
        XCTAssertTrue(script.contains(#"["input"].concat(stages.map(function (stage, index) { return index + ":" + stage.op; }))"#),
                      "lanes input, then <index>:<op>")
        XCTAssertTrue(script.contains(#"send({ type: "input", value: field.value })"#))
        XCTAssertTrue(script.contains(#"current({ type: "input", value: field.value })"#))
        XCTAssertTrue(script.contains("current.cancel()"), "a changed definition ends the old subscription")
        XCTAssertTrue(script.contains(##""#d=" + encodeURIComponent(json)"##), "the definition in the URL")
        for event in ["hello", "value", "activity", "result", "search", "error", "closed"] {
            XCTAssertTrue(script.contains(#"case "\#(event)""#), event)
        }
        XCTAssertTrue(script.contains(#"typeof event.stage === "number" ? list.children[event.stage]"#), "refusals by stage")
        for bound in ["input.min", "input.max", "input.maxLength", "parameter.values"] { XCTAssertTrue(script.contains(bound), bound) }
        XCTAssertFalse(script.contains("innerHTML"))
        XCTAssertFalse(script.contains("eval("))
    }

    /// The shared client ends a subscription on request and leaves a refused definition refused
    /// (handing its stage to the page) instead of subscribing it again.
    func testTheClientCancelsAndDoesNotRetryARefusedDefinition() {
        let client = PipelineClientScript.script
        XCTAssertTrue(client.contains(#"send({ type: "cancel", id: sub.id })"#))
        XCTAssertTrue(client.contains("sub.send.cancel = function () { cancel(sub); };"))
        XCTAssertTrue(client.contains(#"if (frame.code === "bad_pipeline") { refuse(sub, frame, text); } else { restart(sub, text); }"#))
        XCTAssertTrue(client.contains(#"stage: typeof frame.stage === "number" ? frame.stage : null"#))
    }
}

import FakeGithub
import Foundation
import HTTPTestSupport
import XCTest

@testable import ServiceApp

/// A subscription of `/ws/pipelines` is its pipeline's endpoint on a shared socket: the same
/// frames in give the same events out, in the same order, starting with the `hello` (virtual
/// time for throttle, debounce and delay; real lookups to the fake; no cache, so both sessions
/// ask upstream alike).
final class MuxPipelineEventsTests: EndToEndTestCase {
    /// One frame of the pipeline's endpoint, the virtual time to let pass after it, and the
    /// event to wait for (nil: its events come at once).
    private struct Step {
        let message: [String: Any]
        var advance = 0
        var until: ((WireEvent) -> Bool)?
    }

    private func assertSameEvents(_ pipeline: PipelineDescriptor, _ steps: [Step], file: StaticString = #filePath, line: UInt = #line) throws {
        let endpoint = try connect(pipeline.path)
        for step in steps {
            try endpoint.sendText(normalizedJSON(step.message))
            try endpoint.barrier()
            scheduler.advance(by: .milliseconds(step.advance))
            if let until = step.until { try endpoint.waitFor(until) }
        }
        try endpoint.drain(for: 0.3)
        let expected = endpoint.pipelineEvents.map { normalizedJSON(text: $0.raw) }

        let mux = try MuxClient(port: port)
        try mux.subscribe("p", pipeline.name)
        try mux.waitFor { $0.type == "event" }
        for step in steps {
            try mux.send("p", step.message)
            try mux.barrier()
            scheduler.advance(by: .milliseconds(step.advance))
            if let until = step.until {
                try mux.waitFor { frame in frame.type == "event" && frame.event.flatMap { try? WireEvent.decode($0) }.map(until) == true }
            }
        }
        try mux.drain(for: 0.3)
        XCTAssertEqual(mux.events["p"], expected, file: file, line: line)
        XCTAssertEqual(mux.frames(for: "p").first?.type, "subscribed", file: file, line: line)
        XCTAssertGreaterThan(expected.count, steps.count, "the steps produced events", file: file, line: line)
    }

    func testGithubUserSubscriptionSendsTheEventsOfWS() throws {
        try startVirtualService { $0.cache.capacity = 0 }
        // A found user's activity:false follows its result (a failing lookup's comes before it,
        // the seed's order): wait for the last event of each step, so the next step's events
        // cannot overtake it on one side only.
        let found: Set = ["hec", "heckj", "heck"]
        let steps = ["h", "hec", "heckj", "nobody", "-bad", "heck"].map { value in
            Step(message: ["type": "input", "value": value as Any], advance: 600, until: { event in
                found.contains(value) ? event.type == "activity" && event.active == false : event.isResult && event.query == value
            })
        }
        try assertSameEvents(.githubUser, steps)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 2, "one lookup per session")
    }

    func testSearchSubscriptionSendsTheEventsOfWSSearch() throws {
        try startVirtualService { $0.cache.capacity = 0 }
        // Each lookup is waited for up to its activity:false, which follows the search event
        // from the lookup's own thread: a frame sent on seeing the search event could overtake
        // it on one session and not on the other.
        let settled: (WireEvent) -> Bool = { $0.type == "activity" && $0.active == false }
        let steps = [
            Step(message: ["type": "input", "value": "heck"], advance: 400, until: settled),
            Step(message: ["type": "refresh"], advance: 400, until: settled),
            Step(message: ["type": "input", "value": "   "], advance: 400, until: { $0.type == "search" && $0.status == "empty" }),
            Step(message: ["type": "nope"]),
        ]
        try assertSameEvents(.search, steps)
    }

    func testFormSubscriptionSendsTheEventsOfWSForm() throws {
        try startVirtualService()
        let steps = [
            ["type": "submit"], ["type": "field", "name": "value1", "value": "abc"], ["type": "field", "name": "value2", "value": "secret"],
            ["type": "field", "name": "value2_repeat", "value": "secret"], ["type": "submit"], ["type": "field", "name": "nope", "value": ""],
            ["type": "field", "name": "value1", "value": "ab"],
        ].map { Step(message: $0) }
        try assertSameEvents(.form, steps)
    }

    /// A string `message` is a text frame as it would come: `/ws`'s plain-text form works too.
    func testAStringMessageIsTheEndpointsPlainTextFrame() throws {
        try startVirtualService()
        let mux = try MuxClient(port: port)
        try mux.subscribe("u", "github-user")
        try mux.send("u", "he\n")
        try mux.barrier()
        scheduler.advance(by: .milliseconds(600))
        let result = try mux.waitFor { $0.type == "event" && ($0.event ?? "").contains(#""type":"result""#) }
        XCTAssertEqual(try WireEvent.decode(XCTUnwrap(result.event)).query, "he")
    }

    /// `"trace":true`: the instance's traces, with its id, at the catalog's stages, outside demand.
    func testTracesComeWithTheirIDOutsideDemand() throws {
        try startVirtualService()
        let mux = try MuxClient(port: port)
        try mux.subscribe("f", "form", demand: .max(0), trace: true)
        try mux.send("f", ["type": "field", "name": "value1", "value": "abc"])
        try mux.barrier()
        let traces = mux.frames(for: "f").filter { $0.type == "trace" }
        XCTAssertFalse(traces.isEmpty)
        XCTAssertEqual(Set(traces.compactMap(\.stage)).subtracting(PipelineDescriptor.form.stages), [])
        XCTAssertTrue(traces.contains { $0.stage == "value1" && $0.object["value"] as? String == "abc" })
        for trace in traces {
            // Keys sorted, as in every server frame (issue #31: the id used to come first).
            XCTAssertTrue(trace.raw.hasPrefix(#"{"event":""#), trace.raw)
            XCTAssertTrue(trace.raw.contains(#","id":"f","stage":""#), trace.raw)
        }
        XCTAssertEqual(mux.events["f"], [], "no demand: no events, traces all the same")
        let plain = try MuxClient(port: port)
        try plain.subscribe("g", "form")
        try plain.barrier()
        XCTAssertFalse(plain.frames.contains { $0.type == "trace" }, "no traces unless asked")
    }
}

import Foundation
import HTTPTestSupport
import PipelineWire
import StreamCore
import XCTest

@testable import RemotePipeline

/// A composed pipeline from Swift: `RemotePipeline(url:definition:)` subscribes with the
/// definition's normalised object, reads a composed instance's events, and fails with the
/// server's `bad_pipeline` refusal, stage and all.
final class RemoteComposedPipelineTests: RemotePipelineTestCase {
    private let uppercased = PipelineDefinition(stages: [.removeDuplicates, .map(.uppercased)])

    /// The `subscribe` frame carries the definition as its `pipeline` object (normalised); the
    /// composed events read as any others, a `value`'s value as JSON.
    func testTheSubscribeFrameCarriesTheDefinition() throws {
        let subscribes = Box<[String]>([])
        let (_, url) = try scriptedServer { id, frame in
            subscribes.mutate { $0.append(frame) }
            return [
                #"{"id":"\#(id)","pipeline":"composed","type":"subscribed"}"#,
                #"{"event":{"pipeline":"composed","stages":[{"op":"removeDuplicates"},{"fn":"uppercased","op":"map"}],"type":"hello"},"id":"\#(id)","type":"event"}"#,
                #"{"event":{"type":"value","value":"HECKJ"},"id":"\#(id)","type":"event"}"#,
                #"{"event":{"type":"value","value":["a",1,true]},"id":"\#(id)","type":"event"}"#,
            ]
        }
        let recorder = EventRecorder(demand: .max(3))
        let pipeline = RemotePipeline(url: url, definition: uppercased)
        XCTAssertEqual(pipeline.pipeline, "composed")
        XCTAssertEqual(pipeline.definition, uppercased)
        pipeline.events(for: Empty<String, Never>(completeImmediately: false)).subscribe(recorder)
        XCTAssertTrue(waitUntil { recorder.events.count == 3 }, "\(recorder.events)")
        let frame = try XCTUnwrap(subscribes.value.first)
        let id = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any])?["id"] as? String)
        XCTAssertEqual(frame, #"{"demand":3,"id":"\#(id)","pipeline":\#(uppercased.json),"type":"subscribe"}"#)
        XCTAssertEqual(recorder.events.first?.pipeline, "composed")
        XCTAssertEqual(recorder.events.map(\.valueJSON), [nil, #""HECKJ""#, #"["a",1,true]"#])
    }

    /// The real service refuses a definition whose stages do not fit with `bad_pipeline` and the
    /// first offending stage, or `null` for the whole; the publisher fails with both.
    func testARefusedDefinitionFailsWithItsStage() throws {
        try startService()
        let connection = RemotePipelineConnection(url: url)
        defer { connection.close() }
        func completion(_ definition: PipelineDefinition) -> Subscribers.Completion<RemotePipelineError>? {
            let recorder = EventRecorder()
            RemotePipeline(connection: connection, definition: definition).events(for: Just("heckj")).subscribe(recorder)
            return recorder.waitForCompletion()
        }
        XCTAssertEqual(completion(PipelineDefinition(stages: [.delay(ms: 1), .map(.count), .map(.uppercased)])),
                       .failure(.badPipeline(BadPipeline(stage: 2, message: "map does not accept a number (it accepts string)"))))
        XCTAssertEqual(completion(PipelineDefinition(stages: [.throttle(ms: 10_001, latest: true)])),
                       .failure(.badPipeline(BadPipeline(stage: 0, message: "throttle: \"ms\" must be an integer from 0 to 10000"))))
        XCTAssertEqual(completion(PipelineDefinition(stages: [])),
                       .failure(.badPipeline(BadPipeline(stage: nil, message: "a pipeline needs at least one stage"))))
        XCTAssertEqual(RemotePipelineError.badPipeline(BadPipeline(stage: 2, message: "m")).description, "refused (bad_pipeline): stage 2: m")

        // The connection and its other subscriptions go on.
        let recorder = EventRecorder()
        RemotePipeline(connection: connection, pipeline: "github-user").events(for: Just("heckj")).subscribe(recorder)
        XCTAssertEqual(recorder.waitFor { $0.type == "result" }?.users.first?.login, "heckj")
    }

    /// A valid definition runs on the service: its `hello` with the normalised stages, then its
    /// values.
    func testAComposedPipelineRuns() throws {
        try startService()
        let input = PassthroughSubject<String, Never>()
        let recorder = EventRecorder()
        RemotePipeline(url: url, definition: uppercased).events(for: input).subscribe(recorder)
        let hello = try XCTUnwrap(recorder.waitFor { $0.type == "hello" })
        XCTAssertEqual(hello.pipeline, "composed")
        XCTAssertTrue(hello.json.contains(#""stages":[{"op":"removeDuplicates"},{"fn":"uppercased","op":"map"}]"#), hello.json)
        input.send("heckj")
        input.send("heckj")
        input.send("hec")
        XCTAssertTrue(waitUntil(timeout: 10) { recorder.events.filter { $0.type == "value" }.count == 2 })
        XCTAssertEqual(recorder.events.filter { $0.type == "value" }.map(\.valueJSON), [#""HECKJ""#, #""HEC""#])
        XCTAssertNil(recorder.completion)
    }
}

import Foundation
import HTTPServer
import WebSocketPublishers
import HTTPTestSupport
import PipelineWire
import StreamCore
import XCTest

@testable import RemotePipeline

/// The wire frames in memory, and the publisher against a scripted `/ws/pipelines` server (an
/// `HTTPServer` in the test) for what the real service never does: a `finished` completion,
/// events beyond demand, frames that are not JSON.
final class RemotePipelineWireTests: XCTestCase {
    func testClientFramesAreTheContractsJSON() throws {
        func object(_ frame: MuxClientFrame) throws -> NSDictionary {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(frame.json.utf8)) as? NSDictionary)
        }
        func send(_ message: RemotePipelineMessage) -> MuxClientFrame { .send(id: "s1", message: .object(json: message.json)) }
        XCTAssertEqual(try object(.subscribe(id: "s1", pipeline: "github-user", demand: MuxDemand(.max(4)), trace: false)),
                       ["type": "subscribe", "id": "s1", "pipeline": "github-user", "demand": 4])
        XCTAssertEqual(try object(.subscribe(id: "s\"2", pipeline: "form", demand: MuxDemand(.unlimited), trace: false)),
                       ["type": "subscribe", "id": "s\"2", "pipeline": "form", "demand": "unlimited"])
        XCTAssertEqual(try object(send(.input("hé \"x\"\n"))),
                       ["type": "send", "id": "s1", "message": ["type": "input", "value": "hé \"x\"\n"]])
        XCTAssertEqual(try object(send(.refresh)), ["type": "send", "id": "s1", "message": ["type": "refresh"]])
        XCTAssertEqual(try object(.request(id: "s1", demand: MuxDemand(.max(8)))), ["type": "request", "id": "s1", "n": 8])
        XCTAssertEqual(try object(.request(id: "s1", demand: MuxDemand(.unlimited))), ["type": "request", "id": "s1", "n": "unlimited"])
        XCTAssertEqual(try object(.cancel(id: "s1")), ["type": "cancel", "id": "s1"])
        XCTAssertEqual(RemotePipelineMessage.input("a/b\u{1}").json, #"{"type":"input","value":"a/b\u0001"}"#, "the one JSON writer")
        XCTAssertNil(RemotePipelineMessage(json: "[1]"))
        XCTAssertNil(RemotePipelineMessage(json: "{nope"))
        XCTAssertNil(RemotePipelineMessage(json: #"{"a":1} {}"#))
        XCTAssertNotNil(RemotePipelineMessage(json: #"{"type":"field","name":"value1","value":"abc"}"#))
    }

    func testServerEventsAreRead() throws {
        let event = try XCTUnwrap(RemoteEvent(json: #"{"type":"result","query":"heckj","status":"found","users":[{"login":"heckj","id":43388,"name":"Joe Heck","public_repos":69,"avatar_url":"a","html_url":"h"}]}"#))
        XCTAssertEqual(event.type, "result")
        XCTAssertEqual(event.users, [RemoteEvent.User(login: "heckj", id: 43388, name: "Joe Heck", publicRepos: 69, avatarURL: "a", htmlURL: "h")])
        XCTAssertTrue(event.json.hasPrefix(#"{"query":"heckj","status":"found","type":"result""#), event.json)
        XCTAssertNil(RemoteEvent(json: "{}"), "an event has a type")
        XCTAssertNil(RemoteEvent(json: "[]"))
    }

    /// A frame the contract does not define, or an event without a type, fails every
    /// subscription of the connection with `invalidFrame` saying what came.
    func testAnEventWithoutATypeFailsThePublisher() throws {
        let (_, url) = try scriptedServer { id, _ in [#"{"event":{},"id":"\#(id)","type":"event"}"#] }
        let recorder = EventRecorder()
        RemotePipeline(url: url, pipeline: "ticks").events(for: Empty<String, Never>(completeImmediately: false)).subscribe(recorder)
        guard case .failure(.invalidFrame(let reason))? = recorder.waitForCompletion() else {
            return XCTFail("\(String(describing: recorder.completion))")
        }
        XCTAssertTrue(reason.hasPrefix("an event frame without an event object"), reason)
    }

    // MARK: Against a scripted server

    private static func event(_ id: String, _ n: Int) -> String {
        #"{"event":{"type":"tick","n":\#(n)},"id":"\#(id)","type":"event"}"#
    }

    func testAFinishedCompletionFinishesThePublisher() throws {
        let (_, url) = try scriptedServer { id, _ in [Self.event(id, 1), #"{"id":"\#(id)","finished":true,"type":"completion"}"#] }
        let recorder = EventRecorder()
        RemotePipeline(url: url, pipeline: "ticks").events(for: Empty<String, Never>(completeImmediately: false)).subscribe(recorder)
        XCTAssertEqual(recorder.waitForCompletion(), .finished)
        XCTAssertEqual(recorder.events.map(\.json), [#"{"n":1,"type":"tick"}"#])
    }

    func testAnEventBeyondDemandFailsThePublisher() throws {
        let (_, url) = try scriptedServer { id, _ in (1 ... 3).map { Self.event(id, $0) } }
        let recorder = EventRecorder(demand: .max(2))
        RemotePipeline(url: url, pipeline: "ticks").events(for: Empty<String, Never>(completeImmediately: false)).subscribe(recorder)
        guard case .failure(.invalidFrame(let reason))? = recorder.waitForCompletion() else {
            return XCTFail("\(String(describing: recorder.completion))")
        }
        XCTAssertTrue(reason.contains("beyond the demand"), reason)
        XCTAssertEqual(recorder.events.count, 2, "never more than the subscriber asked for")
    }

    func testAnUnreadableFrameFailsEverySubscription() throws {
        let (_, url) = try scriptedServer { _, _ in ["this is not JSON"] }
        let recorder = EventRecorder()
        RemotePipeline(url: url, pipeline: "ticks").events(for: Empty<String, Never>(completeImmediately: false)).subscribe(recorder)
        guard case .failure(.invalidFrame)? = recorder.waitForCompletion() else {
            return XCTFail("\(String(describing: recorder.completion))")
        }
    }

    func testEachSubscriptionIsItsOwnInstanceWithItsOwnDemand() throws {
        let (_, url) = try scriptedServer { id, _ in (1 ... 5).map { Self.event(id, $0) } }
        let connection = RemotePipelineConnection(url: url)
        let pipeline = RemotePipeline(connection: connection, pipeline: "ticks")
        let first = EventRecorder(demand: .max(5))
        let second = EventRecorder(demand: .max(5))
        pipeline.events(for: Empty<String, Never>(completeImmediately: false)).subscribe(first)
        pipeline.events(for: Empty<String, Never>(completeImmediately: false)).subscribe(second)
        XCTAssertTrue(waitUntil { first.events.count == 5 && second.events.count == 5 })
        XCTAssertNil(first.completion)
        XCTAssertNil(second.completion)
        connection.close()
        XCTAssertEqual(first.waitForCompletion(), .failure(.connectionLost))
        XCTAssertEqual(second.waitForCompletion(), .failure(.connectionLost))
    }
}

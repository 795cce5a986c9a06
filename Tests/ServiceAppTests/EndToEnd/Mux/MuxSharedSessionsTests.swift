import FakeGithub
import Foundation
import GithubProxy
import HTTPTestSupport
import SharedState
import XCTest

@testable import ServiceApp

/// With Redis, sessions are counted across replicas, so fair use answers a subscription later
/// (`UpgradeDecision.pending`): the connection's frames wait meanwhile and are then handled in
/// the order they came; a subscription past the shared limit is refused with
/// `too_many_sessions`, counting the other replica's sessions too.
final class MuxSharedSessionsTests: TwoReplicaTestCase {
    func testSubscriptionsAreCountedAcrossReplicasAndFramesWaitInOrder() throws {
        let (_, portB) = try startTwoReplicas { $0.fairUse.sessionsPerClient = 3 }

        let mux = try MuxClient(port: port)
        try mux.subscribe("a", "form")
        // b needs a session counted in Redis; the frames behind it wait for the answer and then
        // reach b's instance in order.
        try mux.subscribe("b", "form")
        try mux.send("b", ["type": "field", "name": "value1", "value": "abc"])
        try mux.send("b", ["type": "submit"])
        try mux.barrier()
        XCTAssertEqual(mux.frames(for: "b").map(\.type), ["subscribed"] + Array(repeating: "event", count: 6))
        XCTAssertEqual(mux.events["b"]?.last, #"{"code":"not_ready","message":"the form is not valid yet","type":"error"}"#)

        let other = try EventClient(port: portB, path: "/ws/form")  // the client's third session, on replica B
        XCTAssertNotNil(other.hello)
        try mux.subscribe("c", "form")
        let refused = try mux.error()
        XCTAssertEqual([refused.code, refused.id], ["too_many_sessions", "c"], "replica B's session counts")
        try mux.cancel("b")
        try mux.subscribe("c", "form")
        try mux.barrier()
        XCTAssertEqual(mux.frames(for: "c").map(\.type).prefix(2), ["error", "subscribed"], "b's session was given back")
        _ = other
    }
}

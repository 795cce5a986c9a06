import Foundation
import HTTPTestSupport
import XCTest

@testable import ServiceApp

/// `drainGracePeriodSeconds` (issue #31): from the start of a shutdown, `/readyz` answers 503
/// while the service goes on accepting connections and serving requests, WebSocket upgrades and
/// open sessions, for the grace period — timed on the virtual clock — and only then closes its
/// listener and drains. Without a grace period the drain begins at once.
final class DrainGracePeriodTests: EndToEndTestCase {
    /// Whether a new connection to the service is refused.
    private var connectionsRefused: Bool {
        guard let client = try? TestHTTPClient(port: port, timeout: 1) else { return true }
        _ = client
        return false
    }

    func testDuringTheGracePeriodReadinessIs503AndEverythingElseIsServedThenTheListenerCloses() throws {
        let service = try startVirtualService { $0.drainGracePeriod = .seconds(10) }
        let early = try connect()
        // A load balancer's keep-alive connection, polling readiness.
        let poller = try TestHTTPClient(port: port)
        let poll = "GET /readyz HTTP/1.1\r\nHost: localhost\r\n\r\n"
        XCTAssertEqual(try poller.request(poll).status, 200)
        let drained = DispatchSemaphore(value: 0)
        service.drain { drained.signal() }

        let readiness = try poller.request(poll)
        XCTAssertEqual(readiness.status, 503, "the poller sees the shutdown at once")
        XCTAssertTrue(readiness.text.contains(#""status":"draining""#), readiness.text)
        XCTAssertNotEqual(readiness.header("Connection")?.lowercased(), "close", "and keeps its connection")
        XCTAssertEqual(try poller.request(poll).status, 503, "on which it polls again")
        XCTAssertEqual(try get("/api/users/heckj").status, 200, "new connections are accepted and served")
        let late = try connect()
        XCTAssertEqual(late.hello?.pipeline, "github-user", "a WebSocket upgrade is accepted")
        try type("heck", on: early)
        XCTAssertEqual(try early.result(for: "heck").status, "found", "open sessions go on")

        scheduler.advance(by: .milliseconds(9_300))  // 9.9 s into the grace period (type took 0.6 s)
        XCTAssertEqual(try get("/readyz").status, 503)
        XCTAssertFalse(connectionsRefused, "the listener is still open")
        XCTAssertEqual(drained.wait(timeout: .now() + 0.2), .timedOut, "nothing drains before the grace period ends")

        scheduler.advance(by: .milliseconds(200))  // the grace period is over: close and drain
        XCTAssertEqual(try early.socket.readClose(), 1001, "WebSockets close with going away")
        XCTAssertEqual(try late.socket.readClose(), 1001)
        try early.socket.sendClose(code: .goingAway)
        try late.socket.sendClose(code: .goingAway)
        XCTAssertTrue(waitUntil(timeout: 5) { self.connectionsRefused }, "the listener is closed")
        XCTAssertEqual(drained.wait(timeout: .now() + 5), .success, "drained once every connection is gone")
    }

    func testWithoutAGracePeriodTheListenerClosesAtOnce() throws {
        let service = try startVirtualService()
        XCTAssertEqual(service.config.drainGracePeriod, .zero, "the default")
        let session = try connect()
        let drained = DispatchSemaphore(value: 0)
        service.drain { drained.signal() }
        XCTAssertEqual(try session.socket.readClose(), 1001)
        try session.socket.sendClose(code: .goingAway)
        XCTAssertTrue(waitUntil(timeout: 5) { self.connectionsRefused })
        XCTAssertEqual(drained.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(scheduler.pendingCount, 0, "no timer")
    }
}

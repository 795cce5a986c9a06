import Foundation
import HTTPTestSupport
@testable import HTTPServer
import WebSocketPublishers
import XCTest

/// The application's say on WebSocket upgrades (`webSocket(_:admit:)`), over real sockets: an
/// immediate refusal, and a decision that comes later (`.pending`) while the connection waits —
/// bytes the client sent meanwhile kept, an accepting decision's `onClose` run once, also for a
/// client that left before it came.
final class UpgradeDecisionTests: ServerTestCase {
    /// A decision that waits for `release`.
    private final class Gate: @unchecked Sendable {
        // Sendable: DispatchSemaphore is thread-safe.
        let release = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)

        func wait() async {
            entered.signal()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    self.release.wait()
                    continuation.resume()
                }
            }
        }
    }

    private func server(admit: @escaping @Sendable (HTTPRequest) -> UpgradeDecision) throws -> UInt16 {
        try echoServer(admit: admit).port
    }

    private func echoServer(admit: @escaping @Sendable (HTTPRequest) -> UpgradeDecision) throws -> (server: HTTPServer, port: UInt16) {
        try startServer(router: Self.standardRouter()) { server in
            server.webSocket("/ws/echo", admit: admit) { session in session.messages.subscribe(session.outbound) }
        }
    }

    /// A server whose upgrades are accepted once `gate` is released, counting `onClose` calls.
    private func acceptingOnceReleased(_ gate: Gate, countingClosesIn closes: Box<Int>) throws -> (server: HTTPServer, port: UInt16) {
        try echoServer { _ in
            .pending {
                await gate.wait()
                return .accept(onClose: { closes.mutate { $0 += 1 } })
            }
        }
    }

    /// An upgrade request for `/ws/echo`.
    private var upgradeRequest: String { TestWebSocketClient.upgradeRequest(path: "/ws/echo", key: TestWebSocketClient.makeKey()) }

    /// A masked text frame, as a client sends it.
    private func maskedText(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8), mask: [UInt8] = [0x11, 0x22, 0x33, 0x44]
        precondition(payload.count < 126)
        return [0x81, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    func testAnImmediateRefusalIsAnsweredAndNoSessionStarts() throws {
        let port = try server { _ in .refuse(HTTPResponse(status: .tooManyRequests, text: "no")) }
        let response = try TestHTTPClient(port: port).request(upgradeRequest)
        XCTAssertEqual(response.status, 429)
        XCTAssertEqual(response.text, "no")
    }

    func testAPendingAcceptUpgradesOnceDecidedAndKeepsWhatTheClientSentMeanwhile() throws {
        let gate = Gate()
        let closes = Box(0)
        let port = try acceptingOnceReleased(gate, countingClosesIn: closes).port
        var client: TestHTTPClient! = try TestHTTPClient(port: port)
        try client.send(upgradeRequest)
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 5), .success)
        try client.send(maskedText("sent while undecided"))
        XCTAssertFalse((try? client.fill(timeout: 0.2)) ?? false, "nothing is answered before the decision")
        gate.release.signal()
        let response = try client.readResponse(head: true)
        XCTAssertEqual(response.status, 101)
        let frame = try client.read(count: 2 + 20)
        XCTAssertEqual(Array(frame.prefix(2)), [0x81, 20])
        XCTAssertEqual(String(decoding: frame.dropFirst(2), as: UTF8.self), "sent while undecided")
        XCTAssertEqual(closes.value, 0)
        client.resetOnClose()
        client = nil
        XCTAssertTrue(waitUntil { closes.value == 1 }, "onClose ran once the session closed")
    }

    func testAPendingRefusalIsAnswered() throws {
        let port = try server { _ in .pending { .refuse(HTTPResponse(status: .tooManyRequests, text: "later")) } }
        let response = try TestHTTPClient(port: port).request(upgradeRequest)
        XCTAssertEqual(response.status, 429)
        XCTAssertEqual(response.text, "later")
    }

    func testAClientThatLeavesBeforeAnAcceptStillGetsItsOnClose() throws {
        let gate = Gate()
        let closes = Box(0)
        let (server, port) = try acceptingOnceReleased(gate, countingClosesIn: closes)
        var client: TestHTTPClient! = try TestHTTPClient(port: port)
        try client.send(upgradeRequest)
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 5), .success)
        client.resetOnClose()
        client = nil
        XCTAssertTrue(waitUntil { server.openConnections == 0 }, "the server saw the client go before deciding")
        gate.release.signal()
        XCTAssertTrue(waitUntil { closes.value == 1 }, "the count taken for the session is given back")
    }

    func testAnAcceptThatComesAfterShutdownBeganIsRefused() throws {
        let gate = Gate()
        let closes = Box(0)
        let (server, port) = try acceptingOnceReleased(gate, countingClosesIn: closes)
        let client = try TestHTTPClient(port: port)
        try client.send(upgradeRequest)
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 5), .success)
        let drained = expectation(description: "drained")
        server.shutdown { drained.fulfill() }
        gate.release.signal()
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 503, "no new session once draining")
        XCTAssertEqual(closes.value, 1, "the count the decision took is given back")
        wait(for: [drained], timeout: 5)
    }
}

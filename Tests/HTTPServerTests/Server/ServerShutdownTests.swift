import HTTPTestSupport
import Foundation
@testable import HTTPServer
import WebSocketPublishers
import XCTest

/// Graceful shutdown over real sockets.
final class ServerShutdownTests: ServerTestCase {
    func testShutdownDrainsEverythingAndRefusesNewConnections() throws {
        let entered = DispatchSemaphore(value: 0)
        var router = Self.standardRouter()
        router.get("/inflight") { _ in
            entered.signal()
            try? await Task.sleep(nanoseconds: 500_000_000)
            return HTTPResponse(text: "finished")
        }
        let (server, port) = try startServer(router: router) { server in
            server.webSocket("/ws/echo") { session in session.messages.subscribe(session.outbound) }
        }
        let idle = try TestHTTPClient(port: port)
        XCTAssertEqual(try idle.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
        let busy = try TestHTTPClient(port: port)
        try busy.send("GET /inflight HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success)
        let webSocket = try TestWebSocketClient(port: port)
        try webSocket.send(text: "before")
        XCTAssertEqual(try webSocket.readText(), "before")

        let completed = expectation(description: "shutdown completion")
        server.shutdown { completed.fulfill() }

        XCTAssertTrue(idle.waitForClose(), "idle keep-alive connection closed")
        XCTAssertTrue(idle.buffer.isEmpty)

        let response = try busy.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "finished")
        XCTAssertEqual(response.header("Connection")?.lowercased(), "close")
        XCTAssertTrue(busy.waitForClose())

        XCTAssertEqual(try webSocket.readClose(), 1001)
        try webSocket.sendClose(code: .goingAway)
        XCTAssertTrue(webSocket.waitForTCPClose())

        wait(for: [completed], timeout: 10)
        XCTAssertEqual(server.openConnections, 0)
        XCTAssertTrue(server.isDraining)

        do {
            let late = try TestHTTPClient(port: port)
            try? late.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertTrue(late.waitForClose(timeout: 2), "a connection after shutdown is not served")
            XCTAssertTrue(late.buffer.isEmpty)
        } catch TestClientError.connectFailed(let code) {
            XCTAssertEqual(code, ECONNREFUSED)
        }
    }

    func testShutdownOfAnIdleServerCompletesAtOnce() throws {
        let (server, port) = try startServer(router: Self.standardRouter())
        XCTAssertEqual(try TestHTTPClient(port: port).request("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").text, "hi")
        XCTAssertTrue(waitUntil { server.openConnections == 0 })
        let start = Date()
        shutDown(server)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testWebSocketThatIgnoresTheCloseIsDroppedAfterTheCloseTimeout() throws {
        var configuration = testConfiguration()
        configuration.webSocket.closeTimeout = .milliseconds(300)
        let (server, port) = try startServer(configuration) { server in
            server.webSocket("/ws/echo") { session in session.messages.subscribe(session.outbound) }
        }
        let webSocket = try TestWebSocketClient(port: port)
        XCTAssertTrue(waitUntil { server.openConnections == 1 })
        let completed = expectation(description: "shutdown completion")
        server.shutdown { completed.fulfill() }
        XCTAssertEqual(try webSocket.readClose(), 1001)
        XCTAssertTrue(webSocket.waitForTCPClose())
        wait(for: [completed], timeout: 10)
    }
}

/// The drain's end: signalled by the last close, or forced at the drain deadline; once only.
final class ServerDrainDeadlineTests: ServerTestCase {
    func testARequestOutlastingTheDrainTimeoutIsClosedAtTheDeadlineAndShutdownCompletes() throws {
        var configuration = testConfiguration()
        configuration.drainTimeout = .milliseconds(200)
        let entered = DispatchSemaphore(value: 0)
        var router = Router()
        router.get("/forever") { _ in
            entered.signal()
            try? await Task.sleep(nanoseconds: 60_000_000_000)
            return HTTPResponse(text: "too late")
        }
        let (server, port) = try startServer(configuration, router: router)
        let busy = try TestHTTPClient(port: port)
        try busy.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success)

        let completed = expectation(description: "shutdown completion")
        server.shutdown { completed.fulfill() }
        XCTAssertTrue(busy.waitForClose(timeout: 10), "closed at the drain deadline, unanswered")
        XCTAssertTrue(busy.buffer.isEmpty)
        wait(for: [completed], timeout: 10)
        XCTAssertEqual(server.openConnections, 0)
    }

    func testEveryShutdownCallCompletesOnceAndAStoppedServerDoesNotStartAgain() throws {
        let (server, port) = try startServer(router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        XCTAssertEqual(try client.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
        let first = expectation(description: "first completion")
        let second = expectation(description: "second completion")
        server.shutdown { first.fulfill() }
        server.shutdown { second.fulfill() }
        wait(for: [first, second], timeout: 10)
        let late = expectation(description: "completion after shutdown")
        server.shutdown { late.fulfill() }
        wait(for: [late], timeout: 1)
        XCTAssertThrowsError(try server.start())
    }

    func testStartingTwiceAnswersWithTheSameAddressAndLateSetUpIsIgnored() throws {
        let (server, port) = try startServer(router: Self.standardRouter())
        XCTAssertEqual(try server.start().port, port)
        server.webSocket("/ws/late") { _ in }
        let client = try TestHTTPClient(port: port)
        XCTAssertEqual(try client.request("GET /ws/late HTTP/1.1\r\nHost: x\r\n\r\n").status, 404)
    }
}

/// Shutdown must not cut off a response the client is still reading.
final class ServerShutdownFlushTests: ServerTestCase {
    func testResponseBeingFlushedIsNotTruncatedByShutdown() throws {
        let huge = [UInt8](repeating: 0x62, count: 16 << 20)
        var router = Router()
        router.get("/huge", immediate: { _ in
            HTTPResponse(headers: ["Content-Type": "application/octet-stream"], body: .bytes(huge))
        })
        let (server, port) = try startServer(router: router)
        let client = try TestHTTPClient(port: port)
        try client.send("GET /huge HTTP/1.1\r\nHost: x\r\n\r\n")
        // The server has answered (and buffered what the socket did not take) once bytes arrive.
        try client.fill()
        let completed = expectation(description: "shutdown completion")
        server.shutdown { completed.fulfill() }
        let response = try client.readResponse()
        XCTAssertEqual(response.body.count, huge.count)
        XCTAssertTrue(client.waitForClose())
        wait(for: [completed], timeout: 10)
    }
}

import HTTPTestSupport
import Foundation
@testable import HTTPServer
import WebSocketPublishers
import StreamCore
import XCTest

/// Less common sequences over real sockets: what follows a `Connection: close`, bytes pipelined
/// behind an upgrade, half-closed clients, slow senders, server-initiated closes.
final class ServerEdgeCaseTests: ServerTestCase {
    func testRequestsPipelinedAfterConnectionCloseAreNotExecuted() throws {
        let counter = Counter()
        var router = Self.standardRouter()
        router.add(.post, "/count", immediate: { _ in
            counter.increment()
            return HTTPResponse(text: "counted")
        })
        // Big enough that the socket does not take it at once, so the close waits for a flush.
        let huge = [UInt8](repeating: 0x61, count: 16 << 20)
        router.get("/huge", immediate: { _ in
            HTTPResponse(headers: ["Content-Type": "application/octet-stream"], body: .bytes(huge))
        })
        let (_, port) = try startServer(router: router)
        let client = try TestHTTPClient(port: port)
        try client.send(
            "GET /huge HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                + "POST /count HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.body.count, huge.count)
        XCTAssertTrue(client.waitForClose())
        XCTAssertTrue(client.buffer.isEmpty, "nothing after the closing response")
        XCTAssertEqual(counter.value, 0, "a request after Connection: close was executed")
    }

    func testManyConcurrentClientsOverSeveralLoops() throws {
        var router = Self.standardRouter()
        router.get("/async/{n}") { request in
            await Task.yield()
            return HTTPResponse(text: request.pathParameters["n"] ?? "?")
        }
        let (server, port) = try startServer(router: router)
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            do {
                let client = try TestHTTPClient(port: port)
                for index in 0 ..< 25 {
                    let path = index % 2 == 0 ? "/hello" : "/async/\(worker)-\(index)"
                    let expected = index % 2 == 0 ? "hi" : "\(worker)-\(index)"
                    if try client.request("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n").text != expected { failures.increment() }
                }
            } catch {
                failures.increment()
            }
        }
        XCTAssertEqual(failures.value, 0)
        XCTAssertTrue(waitUntil { server.openConnections == 0 })
    }

    func testBytesPipelinedBehindTheUpgradeAreTheFirstFrames() throws {
        let (_, port) = try startServer { server in
            server.webSocket("/ws/echo") { session in session.messages.subscribe(session.outbound) }
        }
        let http = try TestHTTPClient(port: port)
        var bytes = Array(TestWebSocketClient.upgradeRequest(path: "/ws/echo", key: TestWebSocketClient.makeKey()).utf8)
        bytes += WebSocketFrameEncoder.frame(opcode: .text, payload: Array("early".utf8), maskingKey: 0x0102_0304)
        try http.send(bytes)
        XCTAssertEqual(try http.readResponse().status, 101)
        var decoder = WebSocketFrameDecoder(requireMasking: false)
        decoder.append(http.buffer)
        http.buffer = []
        var frame = try decoder.nextFrame()
        while frame == nil {
            XCTAssertTrue(try http.fill())
            decoder.append(http.buffer)
            http.buffer = []
            frame = try decoder.nextFrame()
        }
        XCTAssertEqual(frame?.payload, Array("early".utf8))
    }

    func testHalfClosedClientStillGetsItsAnswer() throws {
        let (_, port) = try startServer(router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        client.shutdownWrite()
        XCTAssertEqual(try client.readResponse().text, "slow")
        XCTAssertTrue(client.waitForClose())
    }

    /// Regression: the end of input that followed a half-close closed the connection at once,
    /// dropping the part of a large answer the socket had not taken yet.
    func testHalfClosedClientGetsAllOfALargeAnswer() throws {
        let size = 16 << 20
        var router = Router()
        router.get("/large", immediate: { _ in HTTPResponse(body: .bytes([UInt8](repeating: 0x62, count: size))) })
        let (_, port) = try startServer(router: router)
        let client = try TestHTTPClient(port: port, timeout: 30)
        try client.send("GET /large HTTP/1.1\r\nHost: x\r\n\r\n")
        client.shutdownWrite()
        let response = try client.readToEnd()
        guard let headEnd = TestHTTPClient.find(Array("\r\n\r\n".utf8), in: response) else {
            return XCTFail("no response head in \(response.count) bytes")
        }
        XCTAssertEqual(response.count - headEnd - 4, size)
    }

    func testAClientResetWhileItsRequestRunsCancelsTheHandler() throws {
        let started = expectation(description: "handler started")
        let cancelled = expectation(description: "handler cancelled")
        var router = Router()
        router.get("/forever") { _ in
            await withTaskCancellationHandler {
                started.fulfill()
                try? await Task.sleep(nanoseconds: 120_000_000_000)
            } onCancel: {
                cancelled.fulfill()
            }
            return HTTPResponse(text: "too late")
        }
        let (server, port) = try startServer(router: router)
        var client: TestHTTPClient? = try TestHTTPClient(port: port)
        try client?.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [started], timeout: 5)
        client?.resetOnClose()
        client = nil
        wait(for: [cancelled], timeout: 5)
        XCTAssertTrue(waitUntil { server.openConnections == 0 }, "the reset connection was not closed")
    }

    func testAClientThatHalfClosesWhileItsRequestRunsCancelsTheHandlerAndStillGetsTheAnswer() throws {
        let started = expectation(description: "handler started")
        var router = Router()
        router.get("/until-cancelled") { _ in
            started.fulfill()
            try? await Task.sleep(nanoseconds: 120_000_000_000)
            return HTTPResponse(text: Task.isCancelled ? "cancelled" : "finished")
        }
        let (_, port) = try startServer(router: router)
        let client = try TestHTTPClient(port: port)
        try client.send("GET /until-cancelled HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [started], timeout: 5)
        client.shutdownWrite()
        XCTAssertEqual(try client.readResponse().text, "cancelled")
        XCTAssertTrue(client.waitForClose())
    }

    func testSlowSenderIsCutOffByTheRequestReadTimeout() throws {
        var configuration = testConfiguration()
        configuration.requestReadTimeout = .milliseconds(600)
        let (_, port) = try startServer(configuration, router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        let start = Date()
        var closed = false
        for byte in "GET /hello HTTP/1.1\r\nHost: localhost\r\nX-Slow: \(String(repeating: "s", count: 200))".utf8 {
            do { try client.send([byte]) } catch { closed = true; break }
            if (try? client.fill(timeout: 0.05)) == false { closed = true; break }
            if Date().timeIntervalSince(start) > 5 { break }
        }
        XCTAssertTrue(closed || client.waitForClose(), "the slow sender was never cut off")
        XCTAssertLessThan(Date().timeIntervalSince(start), 4)
    }

    func testOutboundCompletionSendsItsMessagesThenCloses1000() throws {
        let (_, port) = try startServer { server in
            server.webSocket("/ws/bye") { session in
                [WebSocketSession.Message.text("one"), .text("two")].publisher.subscribe(session.outbound)
            }
        }
        let client = try TestWebSocketClient(port: port, path: "/ws/bye")
        XCTAssertEqual(try client.readText(), "one")
        XCTAssertEqual(try client.readText(), "two")
        XCTAssertEqual(try client.readClose(), 1000)
        try client.sendClose(code: .normalClosure)
        XCTAssertTrue(client.waitForTCPClose())
    }

    func testMessagesSentJustBeforeTheCloseReachASlowSubscriber() throws {
        let recorder = SlowRecorder(delay: 0.005)
        let (_, port) = try startServer { server in
            server.webSocket("/ws/slow") { session in session.messages.subscribe(recorder) }
        }
        let client = try TestWebSocketClient(port: port, path: "/ws/slow")
        var bytes: [UInt8] = []
        for index in 0 ..< 10 {
            bytes += WebSocketFrameEncoder.frame(opcode: .text, payload: Array("m\(index)".utf8), maskingKey: 7)
        }
        bytes += WebSocketFrameEncoder.closeFrame(code: .normalClosure, maskingKey: 7)
        try client.http.send(bytes)
        XCTAssertEqual(try client.readClose(), 1000)
        XCTAssertTrue(waitUntil { recorder.finished })
        XCTAssertEqual(recorder.received, (0 ..< 10).map { .text("m\($0)") })
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

import Foundation
import HTTPTestSupport
import StreamCore
@testable import HTTPServer
import WebSocketPublishers
import XCTest

/// `WebSocketClient` over real sockets against the project's own server: echo with and
/// without compression, the closing handshake from either side, keepalive pings, refusals,
/// limits and unreachable servers.
final class WebSocketClientTests: ServerTestCase {
    /// Sessions of /ws/watch whose connection ended.
    private static let watchedClosed = Box(0)

    private func echoServer(
        _ adjust: (inout HTTPServerConfiguration) -> Void = { _ in }
    ) throws -> (server: HTTPServer, port: UInt16) {
        var configuration = testConfiguration()
        adjust(&configuration)
        var router = Self.standardRouter()
        router.get("/fake-upgrade", immediate: { _ in
            HTTPResponse(status: .switchingProtocols, headers: [
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": "AAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            ])
        })
        router.get("/never-ends", immediate: { _ in
            // Ends long after the client's deadline (and in time for the server's shutdown).
            HTTPResponse(status: .forbidden, body: .stream { writer in
                writer.write(Array("go away".utf8))
                DispatchQueue.global().asyncAfter(deadline: .now() + 2) { writer.finish() }
            })
        })
        return try startServer(configuration, router: router) { server in
            server.webSocket("/ws/echo") { session in session.messages.subscribe(session.outbound) }
            server.webSocket("/ws/origin", originCheck: { $0 == "https://good.example" }) { session in
                session.messages.subscribe(session.outbound)
            }
            server.webSocket("/ws/bye") { session in session.close(code: .goingAway, reason: "bye") }
            server.webSocket("/ws/peer") { session in session.send(.text(session.request.peer?.host ?? "?")) }
            server.webSocket("/ws/watch") { session in
                session.send(.text("watching"))
                session.messages.subscribe(Subscribers.Sink(receiveCompletion: { _ in Self.watchedClosed.mutate { $0 += 1 } },
                                                            receiveValue: { _ in }))
            }
        }
    }

    private func echoes(port: UInt16, deflate: PerMessageDeflateConfiguration?) throws -> WebSocketClientHandshake.Agreement {
        let client = try BlockingWebSocketClient(port: port, configuration: .init(deflate: deflate))
        let agreement = try client.opened()
        let big = String(repeating: "a fairly compressible line of text\n", count: 30_000) // ~1 MB
        let binary = (0 ..< 70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let texts = ["hello", "", "ünïcödé ✓", big]
        for text in texts { client.send(text: text) }
        client.send(.binary(binary))
        for text in texts { XCTAssertEqual(try client.text(), text) }
        XCTAssertEqual(try client.message(), .binary(binary))
        client.close()
        guard case .closed(let code, _) = try client.end() else { XCTFail("not closed cleanly"); return agreement }
        XCTAssertEqual(code, .normalClosure, "the server echoes our close")
        return agreement
    }

    func testEchoWithCompression() throws {
        let (_, port) = try echoServer()
        let agreement = try echoes(port: port, deflate: .init())
        XCTAssertEqual(agreement.deflate, PerMessageDeflateParameters(), "permessage-deflate agreed with the defaults")
        XCTAssertEqual(agreement.response.headers["Sec-WebSocket-Extensions"], "permessage-deflate")
    }

    func testEchoWithTheClientsWindowLimitedAndNoContextTakeover() throws {
        let (_, port) = try echoServer { $0.webSocket.deflate = .init(serverNoContextTakeover: true, clientMaxWindowBits: 10) }
        let agreement = try echoes(port: port, deflate: .init(clientNoContextTakeover: true, serverMaxWindowBits: 11))
        XCTAssertEqual(agreement.deflate, PerMessageDeflateParameters(
            serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 11, clientMaxWindowBits: 10))
    }

    func testEchoWithoutCompression() throws {
        let (_, port) = try echoServer()
        XCTAssertNil(try echoes(port: port, deflate: nil).deflate)
        let (_, plainPort) = try echoServer { $0.webSocket.deflate = nil }
        XCTAssertNil(try echoes(port: plainPort, deflate: .init()).deflate, "offered, declined by the server")
    }

    func testMessagesSentBeforeTheHandshakeGoOutInOrder() throws {
        let (_, port) = try echoServer()
        let client = try BlockingWebSocketClient(port: port)
        for index in 0 ..< 50 { client.send(text: "\(index)") }
        try client.opened()
        for index in 0 ..< 50 { XCTAssertEqual(try client.text(), "\(index)") }
    }

    func testTheServersCloseIsAnsweredAndReported() throws {
        let (_, port) = try echoServer()
        let client = try BlockingWebSocketClient(port: port, path: "/ws/bye")
        try client.opened()
        guard case .closed(let code, let reason) = try client.end() else { return XCTFail("not closed") }
        XCTAssertEqual(code, .goingAway)
        XCTAssertEqual(reason, "bye")
    }

    func testServerShutdownClosesWithGoingAway() throws {
        let (server, port) = try echoServer()
        let client = try BlockingWebSocketClient(port: port)
        try client.opened()
        shutDown(server)
        guard case .closed(let code, _) = try client.end() else { return XCTFail("not closed") }
        XCTAssertEqual(code, .goingAway)
    }

    /// The server pings every 0.2 s and drops a client silent for 0.5 s: the client's pongs
    /// keep the connection open well past that.
    func testTheClientAnswersPings() throws {
        let (_, port) = try echoServer {
            $0.webSocket.pingInterval = .milliseconds(200)
            $0.webSocket.idleTimeout = .milliseconds(500)
        }
        let client = try BlockingWebSocketClient(port: port)
        try client.opened()
        XCTAssertThrowsError(try client.next(timeout: 1.5), "nothing happens: no close") { error in
            XCTAssertEqual(error as? TestClientError, .timedOut)
        }
        client.send(text: "still here")
        XCTAssertEqual(try client.text(), "still here")
    }

    func testTheClientsOwnPingsKeepItAlive() throws {
        let (_, port) = try echoServer()
        let client = try BlockingWebSocketClient(
            port: port, configuration: .init(pingInterval: .milliseconds(100), idleTimeout: .milliseconds(400)))
        try client.opened()
        XCTAssertThrowsError(try client.next(timeout: 1.2)) { XCTAssertEqual($0 as? TestClientError, .timedOut) }
    }

    func testRefusalsAreTypedWithStatusAndBody() throws {
        let (_, port) = try echoServer()
        let refused = try BlockingWebSocketClient(port: port, path: "/ws/origin",
                                                  configuration: .init(origin: "https://evil.example"))
        guard case .failed(.rejected(let status, _, let body)) = try refused.next() else { return XCTFail("not rejected") }
        XCTAssertEqual(status, 403)
        XCTAssertTrue(body.contains("origin"), body)

        let welcome = try BlockingWebSocketClient(port: port, path: "/ws/origin", configuration: .init(origin: "https://good.example"))
        try welcome.opened()

        let missing = try BlockingWebSocketClient(port: port, path: "/nowhere")
        guard case .failed(.rejected(404, _, _)) = try missing.next() else { return XCTFail("not a 404") }
    }

    func testAWrongAcceptIsRefused() throws {
        let (_, port) = try echoServer()
        let client = try BlockingWebSocketClient(port: port, path: "/fake-upgrade")
        guard case .failed(.invalidHandshake(let reason)) = try client.next() else { return XCTFail("accepted") }
        XCTAssertTrue(reason.contains("Sec-WebSocket-Accept"), reason)
    }

    func testAMessageOverTheLimitFailsWith1009() throws {
        let (_, port) = try echoServer()
        let client = try BlockingWebSocketClient(port: port, configuration: .init(maxMessageBytes: 1000))
        try client.opened()
        client.send(text: String(repeating: "x", count: 1000))
        XCTAssertEqual(try client.text().count, 1000)
        client.send(text: String(repeating: "x", count: 1001))
        guard case .failed(.protocolViolation(let error)) = try client.end() else { return XCTFail("not failed") }
        XCTAssertEqual(error.closeCode, .messageTooBig)
    }

    func testNothingListeningFailsToConnect() throws {
        let port = try unusedLoopbackPort()
        let client = try BlockingWebSocketClient(port: port)
        guard case .failed(.connectFailed(.systemCall(_, let code))) = try client.next() else { return XCTFail("connected?") }
        XCTAssertEqual(code, ECONNREFUSED)
    }

    func testAServerThatNeverAnswersTimesOut() throws {
        // A listening socket nobody accepts from: the connect succeeds (backlog), no answer comes.
        let listener = try Socket.listening(on: SocketAddress(host: "127.0.0.1", port: 0), backlog: 4)
        defer { listener.close() }
        let port = try listener.localAddress().port
        let client = try BlockingWebSocketClient(port: port, configuration: .init(handshakeTimeout: .milliseconds(300)))
        guard case .failed(.timedOut) = try client.next() else { return XCTFail("no timeout") }
    }

    func testClosingBeforeTheConnectionOpensAbandonsIt() throws {
        let listener = try Socket.listening(on: SocketAddress(host: "127.0.0.1", port: 0), backlog: 4)
        defer { listener.close() }
        let client = try BlockingWebSocketClient(port: try listener.localAddress().port)
        client.close()
        guard case .closed(.abnormalClosure, _) = try client.next() else { return XCTFail("not abandoned") }
        XCTAssertThrowsError(try client.next(timeout: 0.3), "nothing after the end")
    }

    func testAHostNameIsResolved() throws {
        let (_, port) = try echoServer()
        let client = try BlockingWebSocketClient(url: XCTUnwrap(URL(string: "ws://localhost:\(port)/ws/echo")))
        try client.opened()
        client.send(text: "by name")
        XCTAssertEqual(try client.text(), "by name")
    }

    func testTheLocalAddressIsTheOneConfigured() throws {
        let (_, port) = try echoServer()
        for source in ["127.0.0.1", "127.0.0.2"] {
            let client = try BlockingWebSocketClient(port: port, path: "/ws/peer", source: source)
            try client.opened()
            XCTAssertEqual(try client.text(), source)
        }
    }

    func testARefusalWhoseBodyNeverEndsIsReportedAtTheDeadline() throws {
        let (_, port) = try echoServer()
        let client = try BlockingWebSocketClient(port: port, path: "/never-ends", configuration: .init(handshakeTimeout: .milliseconds(200)))
        guard case .failed(.rejected(403, _, let body)) = try client.next() else { return XCTFail("not rejected") }
        XCTAssertTrue(body.contains("go away"), body)
    }

    /// The handler gets the client to answer on, and the connection lives on with no other
    /// reference to the client until one side closes it.
    func testTheHandlerAnswersOnTheClientItIsGiven() throws {
        let (_, port) = try echoServer()
        let before = Self.watchedClosed.value
        let events = Box<[String]>([])
        _ = try WebSocketClient.connect(to: XCTUnwrap(URL(string: "ws://127.0.0.1:\(port)/ws/watch"))) { client, event in
            events.mutate { $0.append("\(event)") }
            if case .message(.text("watching")) = event { client.close() }
        }
        XCTAssertTrue(waitUntil { Self.watchedClosed.value == before + 1 }, "the server saw the session end")
        XCTAssertTrue(waitUntil { events.value.last == "closed(code: 1000, reason: \"\")" }, "\(events.value)")
        XCTAssertEqual(events.value.count, 3, "opened, the message, closed: \(events.value)")
    }

    func testAnInvalidURLThrowsAtOnce() {
        XCTAssertThrowsError(try WebSocketClient.connect(to: URL(string: "wss://127.0.0.1/")!) { _, _ in }) { error in
            XCTAssertEqual(error as? WebSocketClientError, .invalidURL("wss://127.0.0.1/"))
        }
    }
}

/// Servers that break the rules, written by hand on a raw socket: each accepts one
/// connection, reads the upgrade request and answers with `answer(key)`.
final class WebSocketClientMisbehavingServerTests: XCTestCase {
    private func serve(_ answer: @escaping @Sendable (_ key: String) -> [UInt8]) throws -> UInt16 {
        let listener = try Socket.listening(on: SocketAddress(host: "127.0.0.1", port: 0), backlog: 4)
        let port = try listener.localAddress().port
        _ = fcntl(listener.fd, F_SETFL, fcntl(listener.fd, F_GETFL) & ~O_NONBLOCK)  // accept waits
        let thread = Thread {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutableBytes(of: &storage) { Glibc.accept(listener.fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length) }
            guard fd >= 0 else { return }
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                let count = Glibc.read(fd, &buffer, buffer.count)
                guard count > 0 else { break }
                request += buffer[0 ..< count]
            }
            let text = String(decoding: request, as: UTF8.self)
            let key = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                .map { $0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces) } ?? ""
            let bytes = answer(key)
            _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            usleep(2_000_000)  // keeps the connection open while the client decides
            Glibc.close(fd)
        }
        thread.start()
        addTeardownBlock { listener.close() }
        return port
    }

    private static func switching(_ key: String) -> String {
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\r\n"
    }

    func testANegativeContentLengthOnARefusalIsSurvived() throws {
        let port = try serve { _ in Array("HTTP/1.1 403 Forbidden\r\nContent-Length: -5\r\n\r\nno".utf8) }
        let client = try BlockingWebSocketClient(port: port, path: "/")
        guard case .failed(.rejected(403, _, let body)) = try client.next() else { return XCTFail("not rejected") }
        XCTAssertEqual(body, "")
    }

    func testAMaskedServerFrameFailsTheConnectionWith1002() throws {
        let port = try serve { key in
            Array(Self.switching(key).utf8) + WebSocketFrameEncoder.frame(opcode: .text, payload: Array("hi".utf8), maskingKey: 0x0102_0304)
        }
        let client = try BlockingWebSocketClient(port: port, path: "/")
        try client.opened()
        guard case .failed(.protocolViolation(let error)) = try client.next() else { return XCTFail("accepted a masked frame") }
        XCTAssertEqual(error.closeCode, .protocolError)
    }

    func testFramesInTheSamePacketAsThe101AreRead() throws {
        let port = try serve { key in
            Array(Self.switching(key).utf8) + WebSocketFrameEncoder.frame(opcode: .text, payload: Array("early".utf8))
                + WebSocketFrameEncoder.closeFrame(code: .goingAway, reason: "done")
        }
        let client = try BlockingWebSocketClient(port: port, path: "/")
        try client.opened()
        XCTAssertEqual(try client.text(), "early")
        guard case .closed(.goingAway, "done") = try client.next() else { return XCTFail("no close") }
    }
}

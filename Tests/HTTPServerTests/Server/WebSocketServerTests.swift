import HTTPTestSupport
import Foundation
@testable import HTTPServer
import WebSocketPublishers
import XCTest

/// WebSocket sessions over real sockets: handshake answers, echo, control frames, keepalive,
/// the closing handshake, protocol errors and permessage-deflate.
final class WebSocketServerTests: ServerTestCase {
    private func echoServer(
        _ adjust: (inout HTTPServerConfiguration) -> Void = { _ in }
    ) throws -> (server: HTTPServer, port: UInt16) {
        var configuration = testConfiguration()
        adjust(&configuration)
        return try startServer(configuration, router: Self.standardRouter()) { server in
            server.webSocket("/ws/echo") { session in session.messages.subscribe(session.outbound) }
            server.webSocket("/ws/origin", originCheck: { $0 == "https://good.example" }) { session in
                session.messages.subscribe(session.outbound)
            }
        }
    }

    // MARK: Handshake

    func testUpgradeAnswers101WithTheAcceptValue() throws {
        let (_, port) = try echoServer()
        let client = try TestHTTPClient(port: port)
        try client.send(TestWebSocketClient.upgradeRequest(path: "/ws/echo", key: "dGhlIHNhbXBsZSBub25jZQ=="))
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 101)
        XCTAssertEqual(response.header("Sec-WebSocket-Accept"), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        XCTAssertEqual(response.header("Upgrade")?.lowercased(), "websocket")
        XCTAssertNil(response.header("Sec-WebSocket-Extensions"), "no extension unless offered")
    }

    func testWrongVersionIs426WithSupportedVersion() throws {
        let (_, port) = try echoServer()
        let client = try TestHTTPClient(port: port)
        let request = TestWebSocketClient.upgradeRequest(path: "/ws/echo", key: TestWebSocketClient.makeKey())
            .replacingOccurrences(of: "Sec-WebSocket-Version: 13", with: "Sec-WebSocket-Version: 8")
        let response = try client.request(request)
        XCTAssertEqual(response.status, 426)
        XCTAssertEqual(response.header("Sec-WebSocket-Version"), "13")
    }

    func testMissingKeyIs400() throws {
        let (_, port) = try echoServer()
        let client = try TestHTTPClient(port: port)
        let response = try client.request(
            "GET /ws/echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n")
        XCTAssertEqual(response.status, 400)
        // A refused upgrade leaves an ordinary HTTP connection.
        XCTAssertEqual(try client.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
    }

    func testOriginCheckRefusesWith403() throws {
        let (_, port) = try echoServer()
        let refused = try TestHTTPClient(port: port)
        let response = try refused.request(TestWebSocketClient.upgradeRequest(
            path: "/ws/origin", key: TestWebSocketClient.makeKey(), extra: "Origin: https://evil.example\r\n"))
        XCTAssertEqual(response.status, 403)
        let accepted = try TestWebSocketClient(port: port, path: "/ws/origin", extra: "Origin: https://good.example\r\n")
        try accepted.send(text: "ok")
        XCTAssertEqual(try accepted.readText(), "ok")
    }

    // MARK: Messages

    func testTextAndBinaryEcho() throws {
        let (_, port) = try echoServer()
        let client = try TestWebSocketClient(port: port)
        try client.send(text: "hello ✓")
        XCTAssertEqual(try client.readText(), "hello ✓")
        let binary = (0 ..< 70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try client.send(.binary, binary)
        let echoed = try client.readMessage()
        XCTAssertEqual(echoed.opcode, .binary)
        XCTAssertEqual(echoed.payload, binary)
        try client.send(text: "")
        XCTAssertEqual(try client.readText(), "")
    }

    func testFragmentedMessageWithInterleavedPing() throws {
        let (_, port) = try echoServer()
        let client = try TestWebSocketClient(port: port)
        try client.send(.text, Array("Hel".utf8), fin: false)
        try client.send(.ping, [1, 2, 3])
        try client.send(.continuation, Array("lo, ".utf8), fin: false)
        try client.send(.continuation, Array("world".utf8), fin: true)
        let pong = try client.readFrame()
        XCTAssertEqual(pong.opcode, .pong)
        XCTAssertEqual(pong.payload, [1, 2, 3])
        XCTAssertEqual(try client.readText(), "Hello, world")
    }

    func testPingGetsPongWithTheSamePayload() throws {
        let (_, port) = try echoServer()
        let client = try TestWebSocketClient(port: port)
        try client.send(.ping, Array("are you there".utf8))
        let pong = try client.readFrame()
        XCTAssertEqual(pong.opcode, .pong)
        XCTAssertEqual(pong.payload, Array("are you there".utf8))
    }

    // MARK: Keepalive and closing

    func testKeepalivePingThenCloseWhenTheClientNeverAnswers() throws {
        let (server, port) = try echoServer {
            $0.webSocket.pingInterval = .milliseconds(200)
            $0.webSocket.idleTimeout = .seconds(1)
        }
        let client = try TestWebSocketClient(port: port)
        let start = Date()
        let ping = try client.readFrame()
        XCTAssertEqual(ping.opcode, .ping)
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
        XCTAssertTrue(client.waitForTCPClose(timeout: 5))
        XCTAssertTrue(waitUntil { server.openConnections == 0 })
    }

    func testAnsweredPingsKeepTheSessionAlive() throws {
        let (_, port) = try echoServer {
            $0.webSocket.pingInterval = .milliseconds(200)
            $0.webSocket.idleTimeout = .seconds(1)
        }
        let client = try TestWebSocketClient(port: port)
        let until = Date().addingTimeInterval(2)
        var pings = 0
        while Date() < until {
            let frame = try client.readFrame()
            XCTAssertEqual(frame.opcode, .ping)
            pings += 1
            try client.send(.pong, frame.payload)
        }
        XCTAssertGreaterThanOrEqual(pings, 2)
        try client.send(text: "still here")
        XCTAssertEqual(try client.readText(), "still here")
    }

    func testClientCloseIsEchoedAndTCPClosed() throws {
        let (server, port) = try echoServer()
        let client = try TestWebSocketClient(port: port)
        try client.sendClose(code: .normalClosure, reason: "bye")
        XCTAssertEqual(try client.readClose(), 1000)
        XCTAssertTrue(client.waitForTCPClose())
        XCTAssertTrue(waitUntil { server.openConnections == 0 })
    }

    func testUnmaskedFrameIsProtocolError1002() throws {
        let (_, port) = try echoServer()
        let client = try TestWebSocketClient(port: port)
        try client.http.send(WebSocketFrameEncoder.frame(opcode: .text, payload: Array("naked".utf8)))
        XCTAssertEqual(try client.readClose(), 1002)
        XCTAssertTrue(client.waitForTCPClose())
    }

    func testInvalidUTF8Is1007() throws {
        let (_, port) = try echoServer()
        let client = try TestWebSocketClient(port: port)
        try client.send(.text, [0x68, 0xC3, 0x28])
        XCTAssertEqual(try client.readClose(), 1007)
        XCTAssertTrue(client.waitForTCPClose())
    }

    func testTooBigMessageIs1009() throws {
        let (_, port) = try echoServer { $0.webSocket.maxMessageBytes = 1000 }
        let client = try TestWebSocketClient(port: port)
        try client.send(.binary, [UInt8](repeating: 7, count: 1000))
        XCTAssertEqual(try client.readMessage().payload.count, 1000)
        try client.send(.binary, [UInt8](repeating: 7, count: 600), fin: false)
        try client.send(.continuation, [UInt8](repeating: 7, count: 600))
        XCTAssertEqual(try client.readClose(), 1009)
        XCTAssertTrue(client.waitForTCPClose())
    }

    // MARK: permessage-deflate

    func testPermessageDeflateIsNegotiatedAndRoundTrips() throws {
        let (_, port) = try echoServer()
        let client = try TestWebSocketClient(
            port: port, extra: "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n")
        let agreed = try XCTUnwrap(client.handshake.header("Sec-WebSocket-Extensions"))
        XCTAssertTrue(agreed.hasPrefix("permessage-deflate"), agreed)
        let text = String(repeating: "compress me, please. ", count: 200)
        for _ in 0 ..< 3 {
            try client.sendCompressed(.text, Array(text.utf8))
            XCTAssertEqual(try client.readText(), text)
        }
        // Uncompressed messages are still fine in a compressed session.
        try client.send(text: "plain")
        XCTAssertEqual(try client.readText(), "plain")
    }
}

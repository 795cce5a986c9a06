import HTTPServer
import XCTest

final class WebSocketHandshakeTests: XCTestCase {
    private func upgrade(_ extra: [(String, String)] = [], removing: [String] = []) -> HTTPRequest {
        var headers = HTTPHeaders([
            ("Host", "localhost:8080"), ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
        ])
        for name in removing { headers.remove(name) }
        for (name, value) in extra { headers.set(name, value) }
        return HTTPRequest(method: .get, target: "/ws/echo", headers: headers)
    }

    /// RFC 6455 section 1.3 (the value is computed in the RFC text).
    func testRFCExampleAcceptValue() {
        XCTAssertEqual(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    func testAcceptsValidUpgrade() throws {
        let accepted = try WebSocketHandshake(deflate: nil).accept(upgrade())
        XCTAssertEqual(accepted.response.status, .switchingProtocols)
        XCTAssertEqual(accepted.response.headers["Upgrade"], "websocket")
        XCTAssertEqual(accepted.response.headers["Connection"], "Upgrade")
        XCTAssertEqual(accepted.response.headers["Sec-WebSocket-Accept"], "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        XCTAssertNil(accepted.response.headers["Sec-WebSocket-Extensions"])
        XCTAssertNil(accepted.deflate)
    }

    func testHeaderTokensAreCaseInsensitive() throws {
        let request = upgrade([("Upgrade", "WebSocket"), ("Connection", "UPGRADE")])
        XCTAssertNoThrow(try WebSocketHandshake().accept(request))
    }

    private func assertRefused(
        _ request: HTTPRequest, _ handshake: WebSocketHandshake = WebSocketHandshake(), status: HTTPStatus,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            _ = try handshake.accept(request)
            XCTFail("accepted", file: file, line: line)
        } catch {
            XCTAssertEqual(error.status, status, file: file, line: line)
            XCTAssertEqual(error.response.status, status, file: file, line: line)
            XCTAssertFalse(error.reason.isEmpty, file: file, line: line)
        }
    }

    func testRefusals() {
        var post = upgrade()
        post.method = .post
        assertRefused(post, status: .badRequest)
        var http10 = upgrade()
        http10.version = (1, 0)
        assertRefused(http10, status: .badRequest)
        assertRefused(upgrade(removing: ["Upgrade"]), status: .upgradeRequired)
        assertRefused(upgrade([("Upgrade", "h2c")]), status: .badRequest)
        assertRefused(upgrade([("Connection", "keep-alive")]), status: .badRequest)
        assertRefused(upgrade(removing: ["Sec-WebSocket-Key"]), status: .badRequest)
        assertRefused(upgrade([("Sec-WebSocket-Key", "not base64!")]), status: .badRequest)
        assertRefused(upgrade([("Sec-WebSocket-Key", "AQIDBAUGBwgJCgsMDQ4P")]), status: .badRequest) // 15 bytes
        assertRefused(upgrade([("Sec-WebSocket-Key", "AQIDBAUGBwgJCgsMDQ4PEBE=")]), status: .badRequest) // 17 bytes
    }

    func testWrongVersionIs426WithSupportedVersion() {
        for version in ["8", "14", "", "13, 8"] {
            do {
                _ = try WebSocketHandshake().accept(upgrade([("Sec-WebSocket-Version", version)]))
                XCTFail("accepted version \(version)")
            } catch {
                XCTAssertEqual(error.status, .upgradeRequired)
                XCTAssertEqual(error.response.headers["Sec-WebSocket-Version"], "13")
            }
        }
        assertRefused(upgrade(removing: ["Sec-WebSocket-Version"]), status: .upgradeRequired)
    }

    func testOriginCheck() throws {
        let handshake = WebSocketHandshake(originCheck: { $0 == nil || $0 == "http://localhost:8080" })
        XCTAssertNoThrow(try handshake.accept(upgrade()))
        XCTAssertNoThrow(try handshake.accept(upgrade([("Origin", "http://localhost:8080")])))
        assertRefused(upgrade([("Origin", "https://evil.example")]), handshake, status: .forbidden)
    }

    func testNegotiatesDeflate() throws {
        let accepted = try WebSocketHandshake().accept(
            upgrade([("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")]))
        XCTAssertEqual(accepted.response.headers["Sec-WebSocket-Extensions"], "permessage-deflate")
        XCTAssertEqual(accepted.deflate, PerMessageDeflateParameters())
    }

    func testSubprotocolSelection() throws {
        let handshake = WebSocketHandshake(subprotocols: ["chat.v2", "chat"])
        let accepted = try handshake.accept(upgrade([("Sec-WebSocket-Protocol", "chat, chat.v2")]))
        XCTAssertEqual(accepted.subprotocol, "chat.v2")
        XCTAssertEqual(accepted.response.headers["Sec-WebSocket-Protocol"], "chat.v2")
        XCTAssertNil(try handshake.accept(upgrade([("Sec-WebSocket-Protocol", "other")])).subprotocol)
    }
}

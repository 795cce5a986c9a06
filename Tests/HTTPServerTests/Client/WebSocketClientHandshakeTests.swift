@testable import HTTPServer
import XCTest

/// The client side of the opening handshake, in memory: the request, and every answer RFC
/// 6455 §4.1 and RFC 7692 tell a client to refuse.
final class WebSocketClientHandshakeTests: XCTestCase {
    /// RFC 6455 §1.3's sample key and its accept value.
    private let key = "dGhlIHNhbXBsZSBub25jZQ=="
    private let accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    private func handshake(deflate: PerMessageDeflateConfiguration? = .init(), origin: String? = nil) -> WebSocketClientHandshake {
        WebSocketClientHandshake(
            target: "/ws/pipelines?x=1", host: "127.0.0.1:8080",
            configuration: .init(deflate: deflate, origin: origin, headers: ["User-Agent": "test"]), key: key)
    }

    private func response(_ extra: [(String, String)] = [], status: Int = 101, accept: String? = nil) -> HTTPResponseHead {
        var headers: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept ?? self.accept]
        for (name, value) in extra { headers.add(name, value) }
        return HTTPResponseHead(status: status, reason: "Switching Protocols", headers: headers)
    }

    private func assertInvalid(
        _ response: HTTPResponseHead, _ handshake: WebSocketClientHandshake? = nil, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try (handshake ?? self.handshake()).validate(response), file: file, line: line) { error in
            guard case WebSocketClientError.invalidHandshake = error else {
                return XCTFail("expected invalidHandshake, got \(error)", file: file, line: line)
            }
        }
    }

    func testTheRequestCarriesKeyVersionOfferOriginAndHeaders() {
        let text = String(decoding: handshake(origin: "http://example.test").request, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("GET /ws/pipelines?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"))
        for line in ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13",
                     "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits", "Origin: http://example.test",
                     "User-Agent: test"] {
            XCTAssertTrue(text.contains("\r\n\(line)\r\n"), line)
        }
        XCTAssertTrue(text.hasSuffix("\r\n\r\n"))
        XCTAssertFalse(String(decoding: handshake(deflate: nil).request, as: UTF8.self).contains("Extensions"))
    }

    func testFreshKeysAreSixteenRandomBytes() {
        let keys = Set((0 ..< 50).map { _ in WebSocketClientHandshake.makeKey() })
        XCTAssertEqual(keys.count, 50)
        XCTAssertTrue(keys.allSatisfy { Data(base64Encoded: $0)?.count == 16 })
    }

    func testAValidAnswerIsAccepted() throws {
        let agreement = try handshake(deflate: nil).validate(response())
        XCTAssertNil(agreement.deflate)
        XCTAssertEqual(agreement.response.status, 101)
    }

    func testAWrongAcceptMissingUpgradeOrConnectionOrAStrayProtocolIsRefused() {
        assertInvalid(response(accept: "AAAAAAAAAAAAAAAAAAAAAAAAAAA="))
        assertInvalid(HTTPResponseHead(status: 101, reason: "", headers: ["Connection": "Upgrade", "Sec-WebSocket-Accept": accept]))
        assertInvalid(HTTPResponseHead(status: 101, reason: "", headers: ["Upgrade": "websocket", "Sec-WebSocket-Accept": accept]))
        assertInvalid(HTTPResponseHead(status: 101, reason: "", headers: ["Upgrade": "h2c", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept]))
        assertInvalid(response([("Sec-WebSocket-Accept", accept)]), handshake(deflate: nil))
        assertInvalid(response([("Sec-WebSocket-Protocol", "chat")]))
        assertInvalid(response([("Sec-WebSocket-Extensions", "permessage-deflate")]), handshake(deflate: nil))
    }

    func testTheAgreedDeflateParametersAreTaken() throws {
        let agreement = try handshake().validate(response([
            ("Sec-WebSocket-Extensions", "permessage-deflate; server_no_context_takeover; client_max_window_bits=10; server_max_window_bits=12"),
        ]))
        XCTAssertEqual(agreement.deflate, PerMessageDeflateParameters(
            serverNoContextTakeover: true, clientNoContextTakeover: false, serverMaxWindowBits: 12, clientMaxWindowBits: 10))
        XCTAssertEqual(try handshake().validate(response([("Sec-WebSocket-Extensions", "permessage-deflate")])).deflate,
                       PerMessageDeflateParameters())
        XCTAssertNil(try handshake().validate(response()).deflate, "declined: no compression")
    }

    func testDeflateAnswersNotMatchingTheOfferAreRefused() {
        for answer in [
            "x-webkit-deflate-frame", "permessage-deflate, permessage-deflate", "permessage-deflate; mystery",
            "permessage-deflate; server_max_window_bits", "permessage-deflate; server_max_window_bits=16",
            "permessage-deflate; client_max_window_bits=7", "permessage-deflate; server_no_context_takeover=1",
            "permessage-deflate; client_no_context_takeover; client_no_context_takeover",
        ] {
            assertInvalid(response([("Sec-WebSocket-Extensions", answer)]))
        }
        // What was asked for must be answered, and within the offer.
        let asking = handshake(deflate: .init(serverNoContextTakeover: true, serverMaxWindowBits: 10, clientMaxWindowBits: 12))
        let offer = String(decoding: asking.request, as: UTF8.self)
        XCTAssertTrue(offer.contains("permessage-deflate; server_no_context_takeover; server_max_window_bits=10; client_max_window_bits=12"))
        assertInvalid(response([("Sec-WebSocket-Extensions", "permessage-deflate; server_max_window_bits=10")]), asking)
        assertInvalid(response([("Sec-WebSocket-Extensions", "permessage-deflate; server_no_context_takeover")]), asking)
        assertInvalid(response([("Sec-WebSocket-Extensions",
                                 "permessage-deflate; server_no_context_takeover; server_max_window_bits=11")]), asking)
        assertInvalid(response([("Sec-WebSocket-Extensions",
                                 "permessage-deflate; server_no_context_takeover; server_max_window_bits=10; client_max_window_bits=13")]), asking)
        XCTAssertNoThrow(try asking.validate(response([("Sec-WebSocket-Extensions",
                                                        "permessage-deflate; server_no_context_takeover; server_max_window_bits=9")])))
    }

    // MARK: The response head

    func testTheHeadIsReadInPiecesAndWhatFollowsIsKept() throws {
        let bytes = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nX-Two:  a b \r\n\r\n".utf8) + [0x81, 0x02, 0x68, 0x69]
        var parser = HTTPResponseHeadParser(maxBytes: 1024)
        var result: (HTTPResponseHead, [UInt8])?
        for byte in bytes where result == nil {
            result = try [byte].withUnsafeBytes { try parser.append($0) }
        }
        let (head, rest) = try XCTUnwrap(result)
        XCTAssertEqual(head.status, 101)
        XCTAssertEqual(head.reason, "Switching Protocols")
        XCTAssertEqual(head.headers["x-two"], "a b")
        XCTAssertEqual(rest, [], "byte by byte, nothing had arrived after the head yet")

        var whole = HTTPResponseHeadParser(maxBytes: 1024)
        let (_, after) = try XCTUnwrap(bytes.withUnsafeBytes { try whole.append($0) })
        XCTAssertEqual(after, [0x81, 0x02, 0x68, 0x69])
    }

    func testAHeadOverTheLimitFailsWithoutBufferingMore() throws {
        var parser = HTTPResponseHeadParser(maxBytes: 64)
        let line = Array("HTTP/1.1 101 OK\r\n".utf8)
        XCTAssertNil(try line.withUnsafeBytes { try parser.append($0) })
        let endless = [UInt8](repeating: UInt8(ascii: "a"), count: 10_000)
        XCTAssertThrowsError(try endless.withUnsafeBytes { try parser.append($0) }) { error in
            XCTAssertEqual(error as? WebSocketClientError, .responseHeadTooLarge(limit: 64))
        }
        // A head ending just past the bytes kept counts as too long too, however much follows.
        var exact = HTTPResponseHeadParser(maxBytes: 64)
        let fits = Array("HTTP/1.1 101 OK\r\nA: b\r\n\r\n".utf8) + endless
        XCTAssertEqual(try fits.withUnsafeBytes { try exact.append($0) }?.1.count, 10_000)
    }

    func testMalformedHeadsAreRefused() {
        for text in ["HTTP/2 101 x\r\n\r\n", "HTTP/1.1 1O1 x\r\n\r\n", "garbage\r\n\r\n", "HTTP/1.1 101 x\r\nno colon\r\n\r\n",
                     "HTTP/1.1 101 x\r\n folded: x\r\n\r\n", "HTTP/1.1 101 x\r\nbad name: x\r\n\r\n"] {
            var parser = HTTPResponseHeadParser(maxBytes: 1024)
            XCTAssertThrowsError(try Array(text.utf8).withUnsafeBytes { try parser.append($0) }, text) { error in
                guard case WebSocketClientError.invalidHandshake = error else { return XCTFail("\(text): \(error)") }
            }
        }
    }

    func testURLsAreTakenApart() throws {
        let plain = try WebSocketClient.Endpoint(XCTUnwrap(URL(string: "ws://127.0.0.1:8080/ws/pipelines?a=%20b")))
        XCTAssertEqual(plain, .init(host: "127.0.0.1", port: 8080, target: "/ws/pipelines?a=%20b", hostHeader: "127.0.0.1:8080"))
        let bare = try WebSocketClient.Endpoint(XCTUnwrap(URL(string: "ws://example.test")))
        XCTAssertEqual(bare, .init(host: "example.test", port: 80, target: "/", hostHeader: "example.test"))
        let six = try WebSocketClient.Endpoint(XCTUnwrap(URL(string: "ws://[::1]:9000/x")))
        XCTAssertEqual(six.host, "::1")
        XCTAssertEqual(six.hostHeader, "[::1]:9000")
        for text in ["wss://example.test/", "http://example.test/", "ws:///path", "ws://example.test/#frag"] {
            XCTAssertThrowsError(try WebSocketClient.Endpoint(XCTUnwrap(URL(string: text))), text)
        }
    }
}

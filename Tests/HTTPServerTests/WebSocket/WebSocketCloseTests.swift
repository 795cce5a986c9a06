import HTTPServer
import XCTest

final class WebSocketCloseTests: XCTestCase {
    func testServerInitiatedClose() {
        var handshake = WebSocketCloseHandshake()
        XCTAssertTrue(handshake.canSendData)
        XCTAssertTrue(handshake.initiate(code: .goingAway))
        XCTAssertFalse(handshake.canSendData)
        XCTAssertFalse(handshake.initiate(code: .normalClosure), "only one close frame is sent")
        XCTAssertNil(handshake.receive(code: .goingAway))
        XCTAssertTrue(handshake.isComplete)
    }

    func testClientInitiatedCloseIsEchoed() {
        var handshake = WebSocketCloseHandshake()
        XCTAssertEqual(handshake.receive(code: WebSocketCloseCode(rawValue: 3000)), WebSocketCloseCode(rawValue: 3000))
        XCTAssertEqual(handshake.state, .closeReceived(WebSocketCloseCode(rawValue: 3000)))
        XCTAssertFalse(handshake.initiate(code: .normalClosure))
        XCTAssertNil(handshake.receive(code: .normalClosure))
    }

    func testFailure() {
        var handshake = WebSocketCloseHandshake()
        XCTAssertEqual(handshake.fail(with: .invalidPayload("bad")), .invalidPayload)
        XCTAssertNil(handshake.fail(with: .protocolError("again")))
        XCTAssertEqual(handshake.state, .closeSent(.invalidPayload))
    }

    func testCloseFrameEncoding() {
        XCTAssertEqual(WebSocketFrameEncoder.closeFrame(code: .normalClosure), [0x88, 0x02, 0x03, 0xE8])
        XCTAssertEqual(WebSocketFrameEncoder.closeFrame(code: .noStatusReceived), [0x88, 0x00])
        XCTAssertEqual(WebSocketFrameEncoder.closeFrame(code: .protocolError, reason: "x"), [0x88, 0x03, 0x03, 0xEA, 0x78])
        // A long reason is cut to fit 125 bytes, never inside a character.
        let payload = WebSocketFrameEncoder.closePayload(code: .goingAway, reason: String(repeating: "é", count: 100))
        XCTAssertEqual(payload.count, 124)
        XCTAssertTrue(UTF8Validator.isValid(Array(payload[2...])))
    }

    func testErrorsMapToCloseCodes() {
        XCTAssertEqual(WebSocketError.protocolError("").closeCode.rawValue, 1002)
        XCTAssertEqual(WebSocketError.invalidPayload("").closeCode.rawValue, 1007)
        XCTAssertEqual(WebSocketError.messageTooBig("").closeCode.rawValue, 1009)
    }

    func testWriterFrames() {
        let writer = WebSocketWriter()
        var buffer: [UInt8] = []
        writer.writeText("Hello", into: &buffer)
        writer.writePong(Array("Hello".utf8), into: &buffer)
        writer.writeClose(code: .normalClosure, into: &buffer)
        XCTAssertEqual(buffer, [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x8A, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x88, 0x02, 0x03, 0xE8])
        var ping: [UInt8] = []
        writer.writePing(Array(repeating: 1, count: 200), into: &ping)
        XCTAssertEqual(ping.count, 127, "control payloads are capped at 125 bytes")
    }
}

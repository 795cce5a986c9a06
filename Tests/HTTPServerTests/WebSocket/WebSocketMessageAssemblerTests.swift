import HTTPServer
import WebSocketPublishers
import XCTest

final class WebSocketMessageAssemblerTests: XCTestCase {
    func testSingleFrameMessages() {
        let bytes = WSTest.client(text: "Hello") + WSTest.client(.binary, [1, 2, 3]) + WSTest.client(.ping, [9])
            + WSTest.client(.pong, []) + WSTest.client(.close, [0x03, 0xE8] + Array("bye".utf8))
        for chunk in [1, 5, 1000] {
            let result = WSTest.read(bytes, chunk: chunk)
            XCTAssertNil(result.error)
            XCTAssertEqual(result.messages, [
                .text("Hello"), .binary([1, 2, 3]), .ping([9]), .pong([]), .close(code: .normalClosure, reason: "bye"),
            ])
        }
    }

    func testFragmentedMessageWithInterleavedControlFrames() {
        let bytes = WSTest.client(text: "Hel", fin: false) + WSTest.client(.ping, [1])
            + WSTest.client(.continuation, Array("l".utf8), fin: false) + WSTest.client(.pong, [2])
            + WSTest.client(.continuation, Array("o".utf8))
        for chunk in [1, 1000] {
            let result = WSTest.read(bytes, chunk: chunk)
            XCTAssertNil(result.error)
            XCTAssertEqual(result.messages, [.ping([1]), .pong([2]), .text("Hello")])
        }
    }

    func testEmptyFragmentsAndEmptyMessages() {
        let bytes = WSTest.client(.text, [], fin: false) + WSTest.client(.continuation, [], fin: false)
            + WSTest.client(.continuation, []) + WSTest.client(.binary, [])
        XCTAssertEqual(WSTest.read(bytes).messages, [.text(""), .binary([])])
    }

    func testMultiByteCharacterSplitAcrossFragments() {
        let euro = Array("€".utf8) // E2 82 AC
        let bytes = WSTest.client(.text, [euro[0]], fin: false) + WSTest.client(.continuation, [euro[1]], fin: false)
            + WSTest.client(.continuation, [euro[2]])
        XCTAssertEqual(WSTest.read(bytes, chunk: 1).messages, [.text("€")])
    }

    // MARK: 1002

    func testContinuationWithoutStartIs1002() {
        XCTAssertEqual(WSTest.read(WSTest.client(.continuation, [1])).error?.closeCode, .protocolError)
    }

    func testNewDataFrameWhileFragmentedIs1002() {
        let text = WSTest.client(text: "a", fin: false) + WSTest.client(text: "b")
        XCTAssertEqual(WSTest.read(text).error?.closeCode, .protocolError)
        let binary = WSTest.client(.binary, [1], fin: false) + WSTest.client(.binary, [2], fin: false)
        XCTAssertEqual(WSTest.read(binary).error?.closeCode, .protocolError)
    }

    // MARK: 1007

    func testInvalidUTF8InSingleFrameIs1007() {
        XCTAssertEqual(WSTest.read(WSTest.client(.text, [0xCE, 0xBA, 0xED, 0xA0, 0x80])).error?.closeCode, .invalidPayload)
    }

    func testInvalidUTF8FailsOnTheFragmentThatBreaksIt() {
        // The message never finishes: the error must come from the second fragment alone.
        let bytes = WSTest.client(text: "κόσμε", fin: false) + WSTest.client(.continuation, [0xF4, 0x90, 0x80, 0x80], fin: false)
        let result = WSTest.read(bytes)
        XCTAssertEqual(result.error?.closeCode, .invalidPayload)
        XCTAssertEqual(result.messages, [])
    }

    func testTruncatedUTF8AtMessageEndIs1007() {
        let bytes = WSTest.client(.text, [0x61, 0xE2, 0x82], fin: false) + WSTest.client(.continuation, [])
        XCTAssertEqual(WSTest.read(bytes).error?.closeCode, .invalidPayload)
    }

    func testBinaryIsNotValidated() {
        XCTAssertEqual(WSTest.read(WSTest.client(.binary, [0xFF, 0xFE])).messages, [.binary([0xFF, 0xFE])])
    }

    // MARK: 1009

    func testMessageOverLimitIs1009() {
        XCTAssertEqual(WSTest.read(WSTest.client(.binary, Array(repeating: 0, count: 101)), maxMessageSize: 100).error?.closeCode, .messageTooBig)
        XCTAssertNil(WSTest.read(WSTest.client(.binary, Array(repeating: 0, count: 100)), maxMessageSize: 100).error)
        let fragments = WSTest.client(.text, Array(repeating: 0x61, count: 60), fin: false)
            + WSTest.client(.continuation, Array(repeating: 0x61, count: 41))
        XCTAssertEqual(WSTest.read(fragments, maxMessageSize: 100).error?.closeCode, .messageTooBig)
    }

    // MARK: Close frames

    func testClosePayloads() {
        XCTAssertEqual(WSTest.read(WSTest.client(.close, [])).messages, [.close(code: .noStatusReceived, reason: "")])
        XCTAssertEqual(WSTest.read(WSTest.client(.close, [0x0F, 0xA0])).messages, [.close(code: WebSocketCloseCode(rawValue: 4000), reason: "")])
        XCTAssertEqual(WSTest.read(WSTest.client(.close, [0x03, 0xE8])).messages, [.close(code: .normalClosure, reason: "")])
        XCTAssertEqual(WSTest.read(WSTest.client(.close, [0x03])).error?.closeCode, .protocolError)
        XCTAssertEqual(WSTest.read(WSTest.client(.close, [0x03, 0xE8, 0xCE, 0xBA, 0xED, 0xA0, 0x80])).error?.closeCode, .invalidPayload)
    }

    func testCloseCodeValidity() {
        let valid: [UInt16] = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999]
        let invalid: [UInt16] = [0, 999, 1004, 1005, 1006, 1012, 1013, 1014, 1015, 1016, 1100, 2000, 2999, 5000, 65535]
        for code in valid {
            let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
            XCTAssertEqual(WSTest.read(WSTest.client(.close, payload)).messages, [.close(code: WebSocketCloseCode(rawValue: code), reason: "")])
        }
        for code in invalid {
            let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
            XCTAssertEqual(WSTest.read(WSTest.client(.close, payload)).error?.closeCode, .protocolError, "\(code)")
        }
    }

    func testFramesAfterCloseAreIgnored() {
        let bytes = WSTest.client(.close, [0x03, 0xE8]) + WSTest.client(text: "late") + [0x83, 0x80, 0, 0, 0, 0]
        let result = WSTest.read(bytes)
        XCTAssertEqual(result.messages, [.close(code: .normalClosure, reason: "")])
    }
}

final class WebSocketReaderFailFastTests: XCTestCase {
    /// Invalid UTF-8 fails the connection before the rest of its frame arrives.
    func testInvalidTextFailsBeforeTheFrameCompletes() {
        var valid = Array("κόσμε".utf8)
        let invalidTail: [UInt8] = [0xED, 0xA0, 0x80]
        let rest = Array(repeating: UInt8(ascii: "a"), count: 100)
        var frame = WSTest.client(.text, valid + invalidTail + rest)
        frame.removeLast(100) // the rest never arrives
        var reader = WebSocketReader()
        XCTAssertEqual(WSTest.read(frame, chunk: 3, reader: &reader).error?.closeCode, .invalidPayload)

        // In a continuation frame, continuing the UTF-8 state of the earlier fragment.
        valid = Array("ab".utf8) + [0xF0, 0x9F]
        var bytes = WSTest.client(.text, valid, fin: false) + WSTest.client(.continuation, [0x98, 0x80, 0xC0] + rest)
        bytes.removeLast(50)
        var second = WebSocketReader()
        XCTAssertEqual(WSTest.read(bytes, chunk: 1, reader: &second).error?.closeCode, .invalidPayload)
    }

    func testValidTextSplitAnywhereStillPasses() {
        let text = String(repeating: "aé€😀", count: 40)
        let bytes = WSTest.client(.text, Array(text.utf8.prefix(50)), fin: false)
            + WSTest.client(.continuation, Array(text.utf8.dropFirst(50)))
        for chunk in [1, 2, 7] {
            XCTAssertEqual(WSTest.read(bytes, chunk: chunk).messages, [.text(text)])
        }
    }
}

@testable import HTTPServer
import XCTest

final class WebSocketFrameDecoderTests: XCTestCase {
    private let unmaskedDecoder = WebSocketFrameDecoder(requireMasking: false)
    private let hello = Array("Hello".utf8)

    // MARK: RFC 6455 section 5.7 examples

    func testSingleFrameUnmaskedText() {
        let bytes: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        for chunk in [1, 2, 3, 100] {
            let result = WSTest.decode(bytes, chunk: chunk, decoder: unmaskedDecoder)
            XCTAssertNil(result.error)
            XCTAssertEqual(result.frames, [WebSocketFrame(opcode: .text, payload: hello)])
        }
        XCTAssertEqual(WebSocketFrameEncoder.frame(opcode: .text, payload: hello), bytes)
    }

    func testSingleFrameMaskedText() {
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        for chunk in [1, 4, 100] {
            let result = WSTest.decode(bytes, chunk: chunk)
            XCTAssertNil(result.error)
            XCTAssertEqual(result.frames, [WebSocketFrame(opcode: .text, payload: hello)])
        }
        XCTAssertEqual(WSTest.client(text: "Hello"), bytes)
    }

    func testFragmentedUnmaskedText() {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]
        let result = WSTest.decode(bytes, chunk: 1, decoder: unmaskedDecoder)
        XCTAssertNil(result.error)
        XCTAssertEqual(result.frames, [
            WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)),
            WebSocketFrame(fin: true, opcode: .continuation, payload: Array("lo".utf8)),
        ])
    }

    func testPingAndMaskedPong() {
        let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        XCTAssertEqual(WSTest.decode(ping, decoder: unmaskedDecoder).frames, [WebSocketFrame(opcode: .ping, payload: hello)])
        let pong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        XCTAssertEqual(WSTest.decode(pong).frames, [WebSocketFrame(opcode: .pong, payload: hello)])
    }

    func test256ByteBinary16BitLength() {
        let payload = (0 ..< 256).map { UInt8(truncatingIfNeeded: $0) }
        let frame = WebSocketFrameEncoder.frame(opcode: .binary, payload: payload)
        XCTAssertEqual(Array(frame.prefix(4)), [0x82, 0x7E, 0x01, 0x00])
        XCTAssertEqual(frame.count, 260)
        XCTAssertEqual(WSTest.decode(frame, chunk: 1, decoder: unmaskedDecoder).frames, [WebSocketFrame(opcode: .binary, payload: payload)])
        let masked = WSTest.client(.binary, payload)
        XCTAssertEqual(WSTest.decode(masked, chunk: 7).frames, [WebSocketFrame(opcode: .binary, payload: payload)])
    }

    func test64KiBBinary64BitLength() {
        let payload = (0 ..< 65536).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let frame = WebSocketFrameEncoder.frame(opcode: .binary, payload: payload)
        XCTAssertEqual(Array(frame.prefix(10)), [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
        XCTAssertEqual(WSTest.decode(frame, decoder: unmaskedDecoder).frames.first?.payload, payload)
        let masked = WSTest.client(.binary, payload)
        for chunk in [1, 3, 1000, 4096] {
            let result = WSTest.decode(masked, chunk: chunk)
            XCTAssertNil(result.error)
            XCTAssertEqual(result.frames, [WebSocketFrame(opcode: .binary, payload: payload)], "chunk \(chunk)")
        }
    }

    func testNonMinimalLengthEncodingsAreAccepted() {
        // "Hi" with a 16-bit and then a 64-bit length.
        let sixteen: [UInt8] = [0x81, 0xFE, 0x00, 0x02, 0, 0, 0, 0, 0x48, 0x69]
        XCTAssertEqual(WSTest.decode(sixteen).frames.first?.payload, Array("Hi".utf8))
        let sixtyFour: [UInt8] = [0x82, 0xFF, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0x48, 0x69]
        XCTAssertEqual(WSTest.decode(sixtyFour).frames.first?.payload, Array("Hi".utf8))
    }

    func testManyFramesInOneChunkAndEmptyPayloads() {
        var bytes: [UInt8] = []
        for i in 0 ..< 50 { bytes += WSTest.client(.binary, Array(repeating: UInt8(i), count: i)) }
        let result = WSTest.decode(bytes)
        XCTAssertEqual(result.frames.count, 50)
        XCTAssertEqual(result.frames[0].payload, [])
        XCTAssertEqual(result.frames[49].payload, Array(repeating: 49, count: 49))
        XCTAssertEqual(WSTest.decode(bytes, chunk: 1).frames, result.frames)
    }

    func testMaskingAtEveryOffsetAndLength() {
        for length in 0 ..< 40 {
            let payload = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
            for chunk in [1, 2, 3, 5, 9] {
                XCTAssertEqual(WSTest.decode(WSTest.client(.binary, payload), chunk: chunk).frames.first?.payload, payload)
            }
        }
    }

    // MARK: 1002 conditions

    private func assertError(
        _ bytes: [UInt8], _ expected: WebSocketCloseCode, decoder: WebSocketFrameDecoder = WebSocketFrameDecoder(),
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for chunk in [1, bytes.count] {
            let result = WSTest.decode(bytes, chunk: chunk, decoder: decoder)
            XCTAssertEqual(result.error?.closeCode, expected, "chunk \(chunk)", file: file, line: line)
        }
    }

    func testUnmaskedClientFrameIs1002() {
        assertError([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], .protocolError)
    }

    func testReservedOpcodesAre1002() {
        for opcode: UInt8 in [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            assertError([0x80 | opcode, 0x80, 1, 2, 3, 4], .protocolError)
        }
    }

    func testReservedBitsAre1002() {
        assertError([0xC1, 0x80, 1, 2, 3, 4], .protocolError) // RSV1 without deflate
        assertError([0xA1, 0x80, 1, 2, 3, 4], .protocolError) // RSV2
        assertError([0x91, 0x80, 1, 2, 3, 4], .protocolError) // RSV3
        let deflate = WebSocketFrameDecoder(allowsCompressionBit: true)
        assertError([0xA1, 0x80, 1, 2, 3, 4], .protocolError, decoder: deflate)
        assertError([0xC9, 0x80, 1, 2, 3, 4], .protocolError, decoder: deflate) // RSV1 on ping
        assertError([0xC0, 0x80, 1, 2, 3, 4], .protocolError, decoder: deflate) // RSV1 on continuation
        XCTAssertEqual(WSTest.decode([0xC1, 0x80, 1, 2, 3, 4], decoder: deflate).frames.first?.rsv1, true)
    }

    func testControlFrameRules() {
        assertError([0x09, 0x80, 1, 2, 3, 4], .protocolError) // fragmented ping
        assertError([0x88, 0xFE, 0x00, 0x7E], .protocolError) // close with 126 bytes
        assertError(WSTest.client(.ping, Array(repeating: 0, count: 126)), .protocolError)
        XCTAssertNil(WSTest.decode(WSTest.client(.ping, Array(repeating: 0, count: 125))).error)
    }

    func testErrorIsReportedBeforeTheWholeFrameArrives() {
        var decoder = WebSocketFrameDecoder()
        decoder.append([0x83]) // reserved opcode: needs the second byte to be sure of nothing else
        decoder.append([0x85])
        XCTAssertThrowsError(try decoder.nextFrame())
    }

    func test64BitLengthWithTopBitIs1002() {
        assertError([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4], .protocolError)
    }

    func testFramesBeforeAnErrorAreDelivered() {
        let bytes = WSTest.client(text: "ok") + [0x83, 0x80, 1, 2, 3, 4] + WSTest.client(text: "after")
        let result = WSTest.decode(bytes)
        XCTAssertEqual(result.frames.map(\.payload), [Array("ok".utf8)])
        XCTAssertEqual(result.error?.closeCode, .protocolError)
    }

    // MARK: 1009

    func testFrameOverLimitIs1009WithoutBuffering() {
        let decoder = WebSocketFrameDecoder(maxFramePayload: 1000)
        assertError([0x82, 0xFE, 0x03, 0xE9, 1, 2, 3, 4], .messageTooBig, decoder: decoder) // 1001
        assertError([0x82, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4], .messageTooBig)
        XCTAssertNil(WSTest.decode(WSTest.client(.binary, Array(repeating: 1, count: 1000)), decoder: decoder).error)
    }
}

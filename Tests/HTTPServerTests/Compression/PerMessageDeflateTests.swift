@testable import HTTPServer
import WebSocketPublishers
import XCTest

final class PerMessageDeflateTests: XCTestCase {
    private func codec(_ parameters: PerMessageDeflateParameters = .init(), threshold: Int = 0) throws -> PerMessageDeflate {
        try XCTUnwrap(PerMessageDeflate(parameters: parameters, configuration: .init(minimumCompressedSize: threshold)))
    }

    /// Re-sends an RFC 7692 server frame as a masked client frame.
    private func masked(_ serverFrame: [UInt8]) -> [UInt8] {
        let frame = WSTest.decode(serverFrame, decoder: WebSocketFrameDecoder(requireMasking: false, allowsCompressionBit: true)).frames[0]
        return WebSocketFrameEncoder.frame(fin: frame.fin, rsv1: frame.rsv1, opcode: frame.opcode, payload: frame.payload, maskingKey: WSTest.maskKey)
    }

    // MARK: RFC 7692 section 7.2.3 examples, compressing

    func testHelloCompressed() throws {
        let writer = WebSocketWriter(deflate: try codec())
        var buffer: [UInt8] = []
        writer.writeText("Hello", into: &buffer)
        XCTAssertEqual(buffer, WSTest.hex("c1 07 f2 48 cd c9 c9 07 00"))
        var binary: [UInt8] = []
        WebSocketWriter(deflate: try codec()).writeBinary(Array("Hello".utf8), into: &binary)
        XCTAssertEqual(binary, WSTest.hex("c2 07 f2 48 cd c9 c9 07 00"))
    }

    func testSharedWindow() throws {
        let writer = WebSocketWriter(deflate: try codec())
        var buffer: [UInt8] = []
        writer.writeText("Hello", into: &buffer)
        writer.writeText("Hello", into: &buffer)
        XCTAssertEqual(buffer, WSTest.hex("c1 07 f2 48 cd c9 c9 07 00  c1 05 f2 00 11 00 00"))
    }

    func testNoContextTakeover() throws {
        let writer = WebSocketWriter(deflate: try codec(PerMessageDeflateParameters(serverNoContextTakeover: true)))
        var buffer: [UInt8] = []
        writer.writeText("Hello", into: &buffer)
        writer.writeText("Hello", into: &buffer)
        XCTAssertEqual(buffer, WSTest.hex("c1 07 f2 48 cd c9 c9 07 00  c1 07 f2 48 cd c9 c9 07 00"))
    }

    /// An empty message after another one (zlib then flushes nothing) must still be a complete
    /// deflate block, or the receiver's inflater swallows the next message (found by Python
    /// `websockets`, which echoed "hello", "" and then failed to inflate a 64 KiB message).
    func testEmptyMessageAfterAnotherLeavesStreamInSync() throws {
        let writer = WebSocketWriter(deflate: try codec())
        var buffer: [UInt8] = []
        let texts = ["Hello", "", "", String(repeating: "after the empty ones ", count: 100)]
        for text in texts { writer.writeText(text, into: &buffer) }
        XCTAssertEqual(Array(buffer[9 ..< 12]), WSTest.hex("c1 01 00"))
        let bytes = WSTest.decode(buffer, decoder: WebSocketFrameDecoder(requireMasking: false, allowsCompressionBit: true))
            .frames.flatMap { WebSocketFrameEncoder.frame(fin: $0.fin, rsv1: $0.rsv1, opcode: $0.opcode, payload: $0.payload, maskingKey: WSTest.maskKey) }
        let result = WSTest.read(bytes, deflate: try codec())
        XCTAssertNil(result.error)
        XCTAssertEqual(result.messages, texts.map { .text($0) })
    }

    func testSmallMessagesMayGoUncompressed() throws {
        let writer = WebSocketWriter(deflate: try codec(threshold: 16))
        var buffer: [UInt8] = []
        writer.writeText("Hello", into: &buffer)
        XCTAssertEqual(buffer, [0x81, 0x05] + Array("Hello".utf8))
    }

    // MARK: RFC 7692 section 7.2.3 examples, decompressing

    private func readAll(_ serverFrames: [String], parameters: PerMessageDeflateParameters = .init(), chunk: Int = .max) throws -> [WebSocketMessage] {
        let bytes = serverFrames.flatMap { masked(WSTest.hex($0)) }
        let result = WSTest.read(bytes, chunk: chunk, deflate: try codec(parameters))
        XCTAssertNil(result.error)
        return result.messages
    }

    func testDecompressRFCExamples() throws {
        for chunk in [1, 1000] {
            XCTAssertEqual(try readAll(["c1 07 f2 48 cd c9 c9 07 00"], chunk: chunk), [.text("Hello")])
            XCTAssertEqual(try readAll(["41 03 f2 48 cd", "80 04 c9 c9 07 00"], chunk: chunk), [.text("Hello")])
            XCTAssertEqual(try readAll(["c1 07 f2 48 cd c9 c9 07 00", "c1 05 f2 00 11 00 00"], chunk: chunk), [.text("Hello"), .text("Hello")])
            XCTAssertEqual(try readAll(["c1 0b 00 05 00 fa ff 48 65 6c 6c 6f 00"], chunk: chunk), [.text("Hello")])
            XCTAssertEqual(try readAll(["c1 08 f3 48 cd c9 c9 07 00 00"], chunk: chunk), [.text("Hello")])
            XCTAssertEqual(try readAll(["c1 0d f2 48 05 00 00 00 ff ff ca c9 c9 07 00"], chunk: chunk), [.text("Hello")])
        }
    }

    func testNoContextTakeoverExamplesAndMixedUncompressed() throws {
        let frames = ["c1 07 f2 48 cd c9 c9 07 00", "81 05 48 65 6c 6c 6f", "c1 07 f2 48 cd c9 c9 07 00"]
        XCTAssertEqual(try readAll(frames, parameters: .init(clientNoContextTakeover: true)), Array(repeating: .text("Hello"), count: 3))
        XCTAssertEqual(try readAll(frames), Array(repeating: .text("Hello"), count: 3))
    }

    func testWindowSurvivesAFinalBlock() throws {
        // A BFINAL message, then one referring back into the window it left.
        XCTAssertEqual(try readAll(["c1 08 f3 48 cd c9 c9 07 00 00", "c1 05 f2 00 11 00 00"]), [.text("Hello"), .text("Hello")])
    }

    // MARK: Round trips

    func testRoundTripManyMessagesWithContextTakeover() throws {
        for parameters in [PerMessageDeflateParameters(), .init(serverNoContextTakeover: true, clientNoContextTakeover: true),
                           .init(serverMaxWindowBits: 8, clientMaxWindowBits: 8)] {
            let deflate = try codec(parameters)
            for size in [0, 1, 100, 5000, 70000, 300_000] {
                let message = (0 ..< size).map { UInt8(truncatingIfNeeded: ($0 / 7) &* 31 ^ ($0 % 251)) }
                let compressed = deflate.compress(message)
                var output: [UInt8] = []
                let cut = compressed.count / 2
                try deflate.decompress(Array(compressed[..<cut]), isFinal: false, into: &output, limit: 1 << 20)
                try deflate.decompress(Array(compressed[cut...]), isFinal: true, into: &output, limit: 1 << 20)
                XCTAssertEqual(output, message, "size \(size)")
            }
        }
    }

    // MARK: Limits and corruption

    func testDecompressedSizeLimitIs1009() throws {
        let deflate = try codec()
        let compressed = deflate.compress([UInt8](repeating: 0x61, count: 10_000))
        let frame = WSTest.client(.text, compressed, rsv1: true)
        XCTAssertEqual(WSTest.read(frame, maxMessageSize: 9_999, deflate: try codec()).error?.closeCode, .messageTooBig)
        XCTAssertNil(WSTest.read(frame, maxMessageSize: 10_000, deflate: try codec()).error)
    }

    func testCorruptDataIs1007() {
        let frame = WSTest.client(.binary, [0xFF, 0xFF, 0xFF, 0xFF], rsv1: true)
        XCTAssertEqual(WSTest.read(frame, deflate: try? codec()).error?.closeCode, .invalidPayload)
    }

    func testInvalidUTF8InsideCompressedTextIs1007() throws {
        let compressed = try codec().compress([0x61, 0xED, 0xA0, 0x80])
        XCTAssertEqual(WSTest.read(WSTest.client(.text, compressed, rsv1: true), deflate: try codec()).error?.closeCode, .invalidPayload)
    }

    func testRSV1OnContinuationIs1002() throws {
        let bytes = WSTest.client(.text, [0xF2, 0x48], fin: false, rsv1: true) + WSTest.client(.continuation, [0xCD], rsv1: true)
        XCTAssertEqual(WSTest.read(bytes, deflate: try codec()).error?.closeCode, .protocolError)
    }

    /// A message of `megabytes` MiB of zeros compressed piecewise (about 1 KiB per MiB).
    private func bomb(megabytes: Int) throws -> [UInt8] {
        let deflater = try XCTUnwrap(ZlibDeflater(windowBits: 15, level: 9))
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        var payload: [UInt8] = []
        for index in 0 ..< megabytes {
            zeros.withUnsafeBytes { deflater.compressMessage($0, into: &payload) }
            if index < megabytes - 1 { payload += [0x00, 0x00, 0xFF, 0xFF] }
        }
        return payload
    }

    func testDecompressionBombIsRefusedWithBoundedMemory() throws {
        let payload = try bomb(megabytes: 120)
        XCTAssertLessThan(payload.count, 200_000, "the frame is small")
        let frame = WSTest.client(.binary, payload, rsv1: true)
        let before = Self.maxResidentBytes()
        let started = Date()
        let result = WSTest.read(frame, maxMessageSize: 1 << 20, deflate: try codec())
        XCTAssertEqual(result.error?.closeCode, .messageTooBig)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "stops early instead of inflating everything")
        XCTAssertLessThan(Self.maxResidentBytes() - before, 32 << 20, "memory stays small")

        // The same bomb against the default 16 MiB limit, through the raw API.
        var output: [UInt8] = []
        XCTAssertThrowsError(try codec().decompress(payload, isFinal: true, into: &output, limit: 16 << 20)) {
            XCTAssertEqual($0 as? WebSocketError, .messageTooBig("decompressed message exceeds 16777216 bytes"))
        }
        XCTAssertLessThanOrEqual(output.count, 16 << 20)
        XCTAssertLessThanOrEqual(output.capacity, (16 << 20) + 4096)
    }

    private static func maxResidentBytes() -> Int {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }
}

@testable import HTTPServer
import XCTest

/// The client role of the shared codec and state machine, in memory: masking, refusing masked
/// server frames, permessage-deflate with the client's parameters, and the close where the
/// server closes TCP first.
final class WebSocketClientCodecTests: XCTestCase {
    func testAClientMasksEveryFrameWithAFreshKeyAndTheServerReadsThem() throws {
        let writer = WebSocketWriter(role: .client)
        var bytes: [UInt8] = []
        for _ in 0 ..< 20 { writer.writeText("same text", into: &bytes) }
        writer.writePing([1, 2], into: &bytes)
        writer.writeClose(code: .normalClosure, into: &bytes)
        let frameLength = 2 + 4 + 9
        var keys = Set<[UInt8]>()
        for index in 0 ..< 20 {
            let frame = bytes[(index * frameLength) ..< ((index + 1) * frameLength)]
            XCTAssertEqual(frame[frame.startIndex + 1] & 0x80, 0x80, "mask bit")
            keys.insert(Array(frame[(frame.startIndex + 2) ..< (frame.startIndex + 6)]))
        }
        XCTAssertGreaterThan(keys.count, 15, "a fresh key per frame")
        let (messages, error) = WSTest.read(bytes)
        XCTAssertNil(error)
        XCTAssertEqual(messages.count, 22)
        XCTAssertEqual(messages.first, .text("same text"))
        XCTAssertEqual(messages.last, .close(code: .normalClosure, reason: ""))
    }

    func testAClientRefusesMaskedFramesAndReadsTheServers() {
        var client = WebSocketReader(role: .client)
        var bytes: [UInt8] = []
        WebSocketWriter().writeText("from the server", into: &bytes)
        client.append(bytes)
        XCTAssertEqual(try client.nextMessage(), .text("from the server"))
        client.append(WSTest.client(text: "masked"))
        XCTAssertThrowsError(try client.nextMessage()) { error in
            XCTAssertEqual((error as? WebSocketError)?.closeCode, .protocolError)
        }
    }

    /// Each side's deflate uses its own parameters: the client compresses with a 10-bit window
    /// and keeps its context; the server resets after every message.
    func testDeflateRolesPairUp() throws {
        let parameters = PerMessageDeflateParameters(
            serverNoContextTakeover: true, clientNoContextTakeover: false, serverMaxWindowBits: 12, clientMaxWindowBits: 10)
        let client = try XCTUnwrap(PerMessageDeflate(parameters: parameters, role: .client))
        let server = try XCTUnwrap(PerMessageDeflate(parameters: parameters, role: .server))
        // The same 400 pseudo-random letters three times: only a kept window can spot a repeat.
        var generator = SystemRandomNumberGenerator()
        let letters = Array((0 ..< 400).map { _ in UInt8.random(in: 97 ... 122, using: &generator) })
        let messages = [letters, letters, letters]
        var clientSizes: [Int] = []
        for message in messages {
            let compressed = client.compress(message)
            clientSizes.append(compressed.count)
            var inflated: [UInt8] = []
            try server.decompress(compressed, isFinal: true, into: &inflated, limit: 1 << 20)
            XCTAssertEqual(inflated, message)
            let answer = server.compress(message)
            var back: [UInt8] = []
            try client.decompress(answer, isFinal: true, into: &back, limit: 1 << 20)
            XCTAssertEqual(back, message)
        }
        // With no context takeover the server's repeat costs as much as the first; the client,
        // keeping its window, sends the repeat as a back-reference.
        XCTAssertEqual(server.compress(messages[0]).count, server.compress(messages[0]).count)
        XCTAssertGreaterThan(server.compress(messages[0]).count, 200)
        XCTAssertLessThan(clientSizes[1], 20)
    }

    func testAClientHeldToAnEightBitWindowSendsUncompressed() throws {
        let eight = try XCTUnwrap(PerMessageDeflate(parameters: .init(clientMaxWindowBits: 8), role: .client))
        XCTAssertFalse(eight.shouldCompress(length: 1000))
        let server = try XCTUnwrap(PerMessageDeflate(parameters: .init(clientMaxWindowBits: 8), role: .server))
        XCTAssertTrue(server.shouldCompress(length: 1000), "the server's rounding to 9 bits is unchanged")
    }

    func testAClientLeavesTheTCPCloseToTheServer() {
        let timing = WebSocketStateMachine.Timing(pingInterval: nil, idleTimeout: nil, closeTimeout: .seconds(3))
        var answering = WebSocketStateMachine(timing: timing, role: .client)
        XCTAssertEqual(answering.closeReceived(code: .goingAway), .sendCloseThenAwaitPeerDisconnect(.goingAway, then: .arm(.seconds(3))))
        XCTAssertFalse(answering.readsFrames)
        XCTAssertEqual(answering.timerFired(readingPaused: false), .closeConnection, "the server did not close in time")

        var starting = WebSocketStateMachine(timing: timing, role: .client)
        XCTAssertEqual(starting.closeRequested(code: .normalClosure), .sendClose(.normalClosure, then: .arm(.seconds(3))))
        XCTAssertEqual(starting.closeReceived(code: .normalClosure), .awaitPeerDisconnect(then: .arm(.seconds(3))))

        var failing = WebSocketStateMachine(timing: timing, role: .client)
        XCTAssertEqual(failing.failed(.messageTooBig("x")), .sendCloseThenCloseAfterFlush(.messageTooBig), "failing closes at once")

        var server = WebSocketStateMachine(timing: timing)
        XCTAssertEqual(server.closeReceived(code: .goingAway), .sendCloseThenCloseAfterFlush(.goingAway), "the server role is unchanged")
    }
}

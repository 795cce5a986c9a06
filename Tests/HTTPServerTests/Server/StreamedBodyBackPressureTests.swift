import Foundation
import HTTPTestSupport
import XCTest

@testable import HTTPServer

/// A streamed body whose producer paces itself with `writeAndWait` never piles up in the server
/// for a client that does not read, and the producer is let go when the client leaves.
final class StreamedBodyBackPressureTests: ServerTestCase {
    private static let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 16 * 1024)
    private static let chunkCount = 3_072  // 48 MiB: more than loopback's socket buffers hold

    private func startHugeBodyServer(
        produced: Counter, finished: XCTestExpectation, configuration: HTTPServerConfiguration? = nil
    ) throws -> (HTTPServer, UInt16) {
        var router = Router()
        router.get("/huge", immediate: { _ in
            HTTPResponse(body: .stream { writer in
                Task {
                    for _ in 0..<Self.chunkCount {
                        await writer.writeAndWait(Self.chunk)
                        produced.increment()
                    }
                    writer.finish()
                    finished.fulfill()
                }
            })
        })
        return try startServer(configuration, router: router)
    }

    func testAPacedProducerWaitsForAClientThatDoesNotRead() throws {
        let produced = Counter()
        let finished = expectation(description: "producer finished")
        let (server, port) = try startHugeBodyServer(produced: produced, finished: finished)
        let client = try TestHTTPClient(port: port, timeout: 30)
        try client.send("GET /huge HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(waitUntil { produced.value > 0 })
        // Time for an unpaced producer to push the whole body into the server's memory.
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertLessThan(produced.value, Self.chunkCount, "the producer never waited")
        XCTAssertLessThanOrEqual(server.bufferedBytes, ResponseBodyWriterDefaults.readyThresholdBytes + 2 * Self.chunk.count)

        let response = try client.readToEnd()
        wait(for: [finished], timeout: 30)
        XCTAssertEqual(produced.value, Self.chunkCount)
        XCTAssertGreaterThan(response.count, Self.chunkCount * Self.chunk.count)
        XCTAssertEqual(Array(response.suffix(5)), Array("0\r\n\r\n".utf8))
    }

    func testAClientThatStopsReadingIsCutOffAfterTheIdleTimeout() throws {
        var configuration = testConfiguration()
        configuration.idleTimeout = .milliseconds(500)
        let produced = Counter()
        let finished = expectation(description: "producer finished")
        let (server, port) = try startHugeBodyServer(produced: produced, finished: finished, configuration: configuration)
        let client = try TestHTTPClient(port: port)
        try client.send("GET /huge HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(waitUntil { produced.value > 0 })
        // The client reads nothing more: the server closes the stalled connection and the
        // producer, released, runs to its end.
        wait(for: [finished], timeout: 10)
        XCTAssertTrue(waitUntil { server.openConnections == 0 })
        withExtendedLifetime(client) {}
    }

    func testAWaitingProducerIsReleasedWhenTheClientLeaves() throws {
        let produced = Counter()
        let finished = expectation(description: "producer finished")
        let (server, port) = try startHugeBodyServer(produced: produced, finished: finished)
        var client: TestHTTPClient? = try TestHTTPClient(port: port)
        try client?.send("GET /huge HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(waitUntil { produced.value > 0 })
        client?.resetOnClose()
        client = nil
        wait(for: [finished], timeout: 10)
        XCTAssertTrue(waitUntil { server.openConnections == 0 })
    }
}

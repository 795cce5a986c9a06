import HTTPTestSupport
import Foundation
@testable import HTTPServer
import XCTest

/// Every limit over real sockets: its status, and what happens to the connection.
final class HTTPServerLimitTests: ServerTestCase {
    private func limitedServer(
        _ adjust: (inout HTTPServerConfiguration) -> Void
    ) throws -> (server: HTTPServer, port: UInt16) {
        var configuration = testConfiguration()
        adjust(&configuration)
        return try startServer(configuration, router: Self.standardRouter())
    }

    private func assertRejected(
        _ request: String, status: Int, port: UInt16, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let client = try TestHTTPClient(port: port)
        try client.send(request)
        let response = try client.readResponse()
        XCTAssertEqual(response.status, status, file: file, line: line)
        XCTAssertEqual(response.header("Connection")?.lowercased(), "close", file: file, line: line)
        XCTAssertTrue(client.waitForClose(), "connection closes", file: file, line: line)
    }

    func testRequestLineTooLongIs414() throws {
        let (_, port) = try limitedServer { $0.parserLimits.maxRequestLineBytes = 100 }
        try assertRejected(
            "GET /\(String(repeating: "a", count: 200)) HTTP/1.1\r\nHost: x\r\n\r\n", status: 414, port: port)
    }

    func testHeadersTooLargeIs431() throws {
        let (_, port) = try limitedServer { $0.parserLimits.maxHeaderBytes = 200 }
        try assertRejected(
            "GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 300))\r\n\r\n", status: 431, port: port)
    }

    func testBodyTooLargeIs413() throws {
        let (_, port) = try limitedServer { $0.parserLimits.maxBodyBytes = 100 }
        try assertRejected("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n", status: 413, port: port)
        // A chunked body that grows past the limit too.
        try assertRejected(
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n\(String(repeating: "c", count: 64))\r\n40\r\n",
            status: 413, port: port)
    }

    func testStalledRequestTimesOut() throws {
        let (_, port) = try limitedServer { $0.requestReadTimeout = .milliseconds(500) }
        let client = try TestHTTPClient(port: port)
        let start = Date()
        try client.send("GET /hello HTTP/1.1\r\nHost: loc")
        XCTAssertTrue(client.waitForClose(timeout: 5))
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(elapsed, 0.4)
        XCTAssertLessThan(elapsed, 4)
        if !client.buffer.isEmpty {
            XCTAssertTrue(String(decoding: client.buffer, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
        }
    }

    func testIdleKeepAliveConnectionIsClosed() throws {
        let (server, port) = try limitedServer { $0.idleTimeout = .milliseconds(500) }
        let client = try TestHTTPClient(port: port)
        XCTAssertEqual(try client.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
        let start = Date()
        XCTAssertTrue(client.waitForClose(timeout: 5))
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 0.3)
        XCTAssertTrue(client.buffer.isEmpty, "nothing is sent on an idle close")
        XCTAssertTrue(waitUntil { server.openConnections == 0 })
    }

    func testConnectionsBeyondTheLimitAreClosedWhileOthersKeepWorking() throws {
        let (server, port) = try limitedServer { $0.maxConnections = 2 }
        let first = try TestHTTPClient(port: port)
        let second = try TestHTTPClient(port: port)
        XCTAssertEqual(try first.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
        XCTAssertEqual(try second.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
        XCTAssertEqual(server.openConnections, 2)
        let third = try TestHTTPClient(port: port)
        try? third.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(third.waitForClose())
        XCTAssertTrue(third.buffer.isEmpty)
        XCTAssertEqual(try first.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
        XCTAssertEqual(try second.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
    }

    func testFreedSlotIsReused() throws {
        let (server, port) = try limitedServer { $0.maxConnections = 1 }
        do {
            let first = try TestHTTPClient(port: port)
            XCTAssertEqual(try first.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
        }
        XCTAssertTrue(waitUntil { server.openConnections == 0 })
        let next = try TestHTTPClient(port: port)
        XCTAssertEqual(try next.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
    }

    func testMalformedRequestGets400AndClosesWhileAnotherConnectionKeepsWorking() throws {
        let (_, port) = try startServer(router: Self.standardRouter())
        let healthy = try TestHTTPClient(port: port)
        XCTAssertEqual(try healthy.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
        try assertRejected("GET /hello HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", status: 400, port: port)
        try assertRejected("\u{01}\u{02} nonsense\r\n\r\n", status: 400, port: port)
        XCTAssertEqual(try healthy.request("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hi")
    }
}

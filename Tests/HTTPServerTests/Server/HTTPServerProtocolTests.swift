import HTTPTestSupport
import Foundation
@testable import HTTPServer
import XCTest

/// HTTP/1.1 over real loopback sockets: keep-alive, pipelining, HEAD, 100-continue, framing,
/// compression and routing answers.
final class HTTPServerProtocolTests: ServerTestCase {
    private func get(_ path: String, _ extra: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\(extra)\r\n"
    }

    func testPortZeroReportsTheBoundPort() throws {
        let (_, port) = try startServer(router: Self.standardRouter())
        XCTAssertNotEqual(port, 0)
        let client = try TestHTTPClient(port: port)
        XCTAssertEqual(try client.request(get("/hello")).text, "hi")
    }

    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        let (server, port) = try startServer(router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        for _ in 0 ..< 5 {
            let response = try client.request(get("/hello"))
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.text, "hi")
            XCTAssertNotEqual(response.header("Connection")?.lowercased(), "close")
        }
        XCTAssertEqual(server.openConnections, 1)
    }

    func testPipelinedRequestsAreAnsweredInOrderEvenWhenAnEarlierOneIsSlower() throws {
        let (_, port) = try startServer(router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        try client.send(get("/hello") + get("/slow") + get("/hello", "X-Last: 1\r\n"))
        XCTAssertEqual(try client.readResponse().text, "hi")
        XCTAssertEqual(try client.readResponse().text, "slow")
        XCTAssertEqual(try client.readResponse().text, "hi")
        // The connection is still usable afterwards.
        XCTAssertEqual(try client.request(get("/slow")).text, "slow")
    }

    func testAStaticRouteAnswersKeepAliveGetsHeadAndClosingRequestsAlike() throws {
        var router = Router()
        router.get("/healthz", static: HTTPResponse(status: .ok, contentType: "application/json", text: #"{"status":"ok"}"#))
        let (_, port) = try startServer(router: router)
        let client = try TestHTTPClient(port: port)
        for _ in 0 ..< 3 {
            let response = try client.request(get("/healthz"))
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.text, #"{"status":"ok"}"#)
            XCTAssertEqual(response.header("Content-Type"), "application/json")
            XCTAssertNotNil(response.header("Date"))
        }
        let head = try client.request("HEAD /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n", head: true)
        XCTAssertEqual(head.header("Content-Length"), "15")
        XCTAssertEqual(head.text, "")
        let last = try client.request(get("/healthz", "Connection: close\r\n"))
        XCTAssertEqual(last.text, #"{"status":"ok"}"#)
        XCTAssertEqual(last.header("Connection"), "close")
    }

    func testHeadGetsHeadersWithoutBody() throws {
        let (_, port) = try startServer(router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        let head = try client.request("HEAD /hello HTTP/1.1\r\nHost: localhost\r\n\r\n", head: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), "2")
        // No body bytes follow: the next response starts right away.
        let next = try client.request(get("/hello"))
        XCTAssertEqual(next.text, "hi")
    }

    func testExpectContinueGets100ThenTheResponse() throws {
        let (_, port) = try startServer(router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        try client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 100)
        try client.send("hello")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "hello")
    }

    func testExpectContinueWithTooLargeBodyGets413Without100() throws {
        var configuration = testConfiguration()
        configuration.parserLimits.maxBodyBytes = 1000
        let (_, port) = try startServer(configuration, router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        try client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 413)
        XCTAssertTrue(client.waitForClose())
    }

    func testConnectionCloseIsHonoured() throws {
        let (_, port) = try startServer(router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        let response = try client.request(get("/hello", "Connection: close\r\n"))
        XCTAssertEqual(response.text, "hi")
        XCTAssertEqual(response.header("Connection")?.lowercased(), "close")
        XCTAssertTrue(client.waitForClose())
    }

    func testChunkedRequestBody() throws {
        let (_, port) = try startServer(router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        try client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n")
        try client.send("5\r\nhello\r\n")
        try client.send("7;ext=1\r\n, world\r\n0\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "hello, world")
    }

    func testStreamedResponseIsChunkedAndKeepsTheConnection() throws {
        let (_, port) = try startServer(router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        let response = try client.request(get("/stream"))
        XCTAssertEqual(response.header("Transfer-Encoding")?.lowercased(), "chunked")
        XCTAssertNil(response.header("Content-Length"))
        XCTAssertEqual(response.text, (0 ..< 5).map { "part \($0)\n" }.joined())
        XCTAssertEqual(try client.request(get("/hello")).text, "hi")
    }

    func testGzipWhenAcceptedAndWorthIt() throws {
        let (_, port) = try startServer(router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        let plain = try client.request(get("/big"))
        XCTAssertNil(plain.header("Content-Encoding"))
        let gzipped = try client.request(get("/big", "Accept-Encoding: gzip, deflate\r\n"))
        XCTAssertEqual(gzipped.header("Content-Encoding"), "gzip")
        XCTAssertTrue(gzipped.header("Vary")?.lowercased().contains("accept-encoding") ?? false)
        XCTAssertLessThan(gzipped.body.count, plain.body.count / 4)
        XCTAssertEqual(gunzip(gzipped.body), plain.body)
        // Small bodies are not worth it.
        let small = try client.request(get("/hello", "Accept-Encoding: gzip\r\n"))
        XCTAssertNil(small.header("Content-Encoding"))
        XCTAssertEqual(small.text, "hi")
    }

    func testNotFoundAndMethodNotAllowedWithAllow() throws {
        let (_, port) = try startServer(router: Self.standardRouter())
        let client = try TestHTTPClient(port: port)
        XCTAssertEqual(try client.request(get("/nowhere")).status, 404)
        let response = try client.request("DELETE /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
        XCTAssertEqual(response.status, 405)
        let allowed = Set((response.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        XCTAssertEqual(allowed, ["GET", "HEAD"])
        // Both keep the connection.
        XCTAssertEqual(try client.request(get("/hello")).text, "hi")
    }

    func testIPv6Loopback() throws {
        var configuration = testConfiguration()
        configuration.host = "::1"
        let server = HTTPServer(configuration: configuration, router: Self.standardRouter())
        let address: SocketAddress
        do {
            address = try server.start()
        } catch {
            throw XCTSkip("IPv6 loopback unavailable: \(error)")
        }
        defer { shutDown(server) }
        let client = try TestHTTPClient(host: "::1", port: address.port)
        XCTAssertEqual(try client.request(get("/hello")).text, "hi")
    }
}

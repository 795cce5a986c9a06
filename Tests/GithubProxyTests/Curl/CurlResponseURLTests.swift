import Foundation
import GithubProxy
import HTTPServer
import Logging
import StreamCore
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The response's URL is where the transfer ended, as URLSession reports it: the request's own
/// URL without a redirect, the last location after redirects.
final class CurlResponseURLTests: XCTestCase {
    private var server: HTTPServer?

    override func tearDown() {
        server?.shutdown()
        server = nil
        super.tearDown()
    }

    func testTheResponseURLIsTheRequestedOneWithoutARedirect() throws {
        let base = try startServer()
        let response = try fetch(URL(string: "\(base)/end?q=1")!)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.url?.absoluteString, "\(base)/end?q=1")
    }

    func testTheResponseURLIsTheLastLocationAfterARedirect() throws {
        let base = try startServer()
        let response = try fetch(URL(string: "\(base)/start")!)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.url?.absoluteString, "\(base)/end")
    }

    /// Serves `/start` (a 302 to `/end`) and `/end`; returns its base URL.
    private func startServer() throws -> String {
        var router = Router()
        router.get("/start", static: HTTPResponse(status: HTTPStatus(302, "Found"), headers: ["Location": "/end"]))
        router.get("/end", static: HTTPResponse(text: "ok"))
        var logger = Logger(label: "curl-response-url-tests")
        logger.logLevel = .critical
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, loopCount: 1, drainTimeout: .seconds(1)),
            router: router, logger: logger
        )
        let address = try server.start()
        self.server = server
        return "http://127.0.0.1:\(address.port)"
    }

    private func fetch(_ url: URL) throws -> HTTPURLResponse {
        let client = CurlHTTPClient()
        defer { client.shutdown() }
        let done = expectation(description: "answered")
        let received = Received()
        let cancellable = client.dataTaskPublisher(for: url)
            .sink(receiveCompletion: { _ in done.fulfill() }, receiveValue: { value in received.response.withLock { $0 = value.response } })
        wait(for: [done], timeout: 10)
        cancellable.cancel()
        return try XCTUnwrap(received.response.withLock { $0 })
    }
}

private final class Received: Sendable {
    let response = Mutex<HTTPURLResponse?>(nil)
}

import Foundation
@testable import HTTPServer
import XCTest

/// Starts servers on `127.0.0.1:0` and shuts every one of them down after the test.
class ServerTestCase: XCTestCase {
    private var servers: [HTTPServer] = []

    /// A configuration for tests: loopback, a free port, two loops, short timeouts.
    func testConfiguration() -> HTTPServerConfiguration {
        HTTPServerConfiguration(host: "127.0.0.1", port: 0, loopCount: 2, drainTimeout: .seconds(5))
    }

    /// Starts a server; `setUp` can add WebSocket routes before it starts.
    func startServer(
        _ configuration: HTTPServerConfiguration? = nil, router: Router = Router(),
        setUp: (HTTPServer) -> Void = { _ in }
    ) throws -> (server: HTTPServer, port: UInt16) {
        let server = HTTPServer(configuration: configuration ?? testConfiguration(), router: router)
        setUp(server)
        let address = try server.start()
        servers.append(server)
        return (server, address.port)
    }

    /// Shuts `server` down and waits for its completion.
    func shutDown(_ server: HTTPServer, timeout: TimeInterval = 10) {
        let done = expectation(description: "shutdown completes")
        server.shutdown { done.fulfill() }
        wait(for: [done], timeout: timeout)
    }

    override func tearDown() {
        for server in servers {
            let done = DispatchSemaphore(value: 0)
            server.shutdown { done.signal() }
            XCTAssertEqual(done.wait(timeout: .now() + 15), .success, "server shut down")
        }
        servers = []
        super.tearDown()
    }

    /// A router with the routes most tests use.
    static func standardRouter() -> Router {
        var router = Router()
        router.get("/hello", immediate: { _ in HTTPResponse(text: "hi") })
        router.get("/slow") { _ in
            try? await Task.sleep(nanoseconds: 300_000_000)
            return HTTPResponse(text: "slow")
        }
        router.add(.post, "/echo", immediate: { request in
            HTTPResponse(headers: ["Content-Type": "application/octet-stream"], body: .bytes(request.body))
        })
        router.get("/big", immediate: { _ in
            HTTPResponse(contentType: "application/json", text: String(repeating: "{\"key\":\"value\"},", count: 2000))
        })
        router.get("/stream", immediate: { _ in
            HTTPResponse(body: .stream { writer in
                DispatchQueue.global().async {
                    for index in 0 ..< 5 {
                        writer.write(Array("part \(index)\n".utf8))
                        usleep(10_000)
                    }
                    writer.finish()
                }
            })
        })
        return router
    }
}

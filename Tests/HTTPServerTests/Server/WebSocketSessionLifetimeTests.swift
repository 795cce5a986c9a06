import Dispatch
import HTTPTestSupport
import Synchronization
@testable import HTTPServer
import XCTest

/// What a `WebSocketSession` keeps alive once its connection has closed.
final class WebSocketSessionLifetimeTests: ServerTestCase {
    /// The session holds its connection's handler while the connection is open, and lets go of
    /// it when it closes: an application that keeps the session keeps neither the handler nor
    /// its buffers, and what it sends goes nowhere.
    func testAKeptSessionLetsGoOfItsHandlerWhenTheConnectionCloses() throws {
        let kept = KeptSession()
        let observer = CloseObserver()
        let (_, port) = try startServer(testConfiguration(), router: Self.standardRouter()) { server in
            server.webSocket("/ws/kept") { session in
                // On the loop.
                kept.session.withLock { $0 = session }
                session.addOutputObserver(observer)
            }
        }
        let client = try TestWebSocketClient(port: port, path: "/ws/kept")
        try client.sendClose(code: .normalClosure)
        XCTAssertEqual(try client.readClose(), WebSocketCloseCode.normalClosure.rawValue)
        XCTAssertEqual(observer.closed.wait(timeout: .now() + 10), .success, "the server never saw the close")
        let session = try XCTUnwrap(kept.session.withLock { $0 })
        // Runs after the loop has finished closing the connection.
        XCTAssertTrue(session.loop.sync { session.handler == nil })
        session.send(.text("after the close"))
        XCTAssertTrue(session.loop.sync { session.handler == nil })
    }
}

private final class KeptSession: Sendable {
    let session = Mutex<WebSocketSession?>(nil)
}

private final class CloseObserver: WebSocketOutputObserver, Sendable {
    let closed = DispatchSemaphore(value: 0)
    func outputDrained() {}
    func sessionClosed() { closed.signal() }
}

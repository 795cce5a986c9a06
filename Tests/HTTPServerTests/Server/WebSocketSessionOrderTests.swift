import HTTPTestSupport
import Dispatch
import Foundation
@testable import HTTPServer
import XCTest

/// `WebSocketSession.send` keeps call order across threads, the loop's own included.
final class WebSocketSessionOrderTests: ServerTestCase {
    func testSendFromTheLoopDoesNotOvertakeAnEarlierSendFromAnotherThread() throws {
        let (_, port) = try startServer(testConfiguration(), router: Self.standardRouter()) { server in
            server.webSocket("/ws/order") { session in
                // Runs on the loop: "1" is queued from another thread, then "2" is sent here.
                let queued = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    session.send(.text("1"))
                    queued.signal()
                }
                queued.wait()
                session.send(.text("2"))
                session.close(code: .normalClosure)
            }
        }
        let client = try TestWebSocketClient(port: port, path: "/ws/order")
        XCTAssertEqual(try client.readText(), "1")
        XCTAssertEqual(try client.readText(), "2")
    }
}

import Foundation
import HTTPServer
import StreamCore
import XCTest

extension XCTestCase {
    /// A scripted `/ws/pipelines` server (an `HTTPServer` in the test), stopped after the test:
    /// it answers every `subscribe` frame with what `script` returns for its id and its text
    /// (frames as text), for what the real service never does.
    func scriptedServer(_ script: @escaping @Sendable (_ id: String, _ subscribe: String) -> [String]) throws -> (HTTPServer, URL) {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, loopCount: 1, drainTimeout: .seconds(1)))
        server.webSocket("/ws/pipelines") { session in
            session.messages.sink { message in
                guard case .text(let text) = message,
                      let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                      object["type"] as? String == "subscribe", let id = object["id"] as? String else { return }
                for frame in script(id, text) { session.send(.text(frame)) }
            }.store(in: scriptedServerSubscriptions)
        }
        let port = try server.start().port
        addTeardownBlock {
            let done = DispatchSemaphore(value: 0)
            server.shutdown { done.signal() }
            _ = done.wait(timeout: .now() + 10)
        }
        return (server, try XCTUnwrap(URL(string: "ws://127.0.0.1:\(port)/ws/pipelines")))
    }
}

/// The scripted servers' subscriptions, kept alive.
private let scriptedServerSubscriptions = CancellableBag()

/// Keeps subscriptions alive.
final class CancellableBag: @unchecked Sendable {
    // Sendable: `items` is guarded by `lock`.
    private let lock = NSLock()
    private var items: [AnyCancellable] = []
    func insert(_ cancellable: AnyCancellable) { lock.withLock { items.append(cancellable) } }
}

extension AnyCancellable {
    func store(in bag: CancellableBag) { bag.insert(self) }
}

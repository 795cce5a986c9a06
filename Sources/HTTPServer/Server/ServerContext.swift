import Foundation
import Locking
import Logging

/// What every connection of one server shares: configuration, routes, the draining flag.
final class ServerContext: @unchecked Sendable {
    // Sendable: everything is immutable after `HTTPServer.start()` except `draining`, which is
    // guarded by `lock`.
    let configuration: HTTPServerConfiguration
    let router: Router
    let webSocketRoutes: [String: WebSocketRoute]
    let logger: Logger
    let events = ServerEvents()
    let errorResponse: @Sendable (HTTPStatus, String) -> HTTPResponse
    private let lock = Lock()
    private var draining = false

    init(
        configuration: HTTPServerConfiguration, router: Router, webSocketRoutes: [String: WebSocketRoute], logger: Logger,
        errorResponse: @escaping @Sendable (HTTPStatus, String) -> HTTPResponse
    ) {
        self.configuration = configuration
        self.router = router
        self.webSocketRoutes = webSocketRoutes
        self.logger = logger
        self.errorResponse = errorResponse
    }

    var isDraining: Bool { lock.withLock { draining } }

    func startDraining() { lock.withLock { draining = true } }

    /// The WebSocket route for a request's path, if any: every request to such a path goes
    /// through the handshake (a plain GET there gets 426).
    func webSocketRoute(for request: HTTPRequest) -> WebSocketRoute? {
        webSocketRoutes.isEmpty ? nil : webSocketRoutes[request.path]
    }
}

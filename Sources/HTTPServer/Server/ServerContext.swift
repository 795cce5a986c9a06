import Foundation
import Logging
import Synchronization

/// What every connection of one server shares: configuration, routes, the draining flag.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let router: Router
    let webSocketRoutes: [String: WebSocketRoute]
    let logger: Logger
    let events = ServerEvents()
    let errorResponse: @Sendable (HTTPStatus, String) -> HTTPResponse
    private let draining = Atomic(false)

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

    var isDraining: Bool { draining.load(ordering: .acquiring) }

    func startDraining() { draining.store(true, ordering: .releasing) }

    /// The WebSocket route for a request's path, if any: every request to such a path goes
    /// through the handshake (a plain GET there gets 426).
    func webSocketRoute(for request: HTTPRequest) -> WebSocketRoute? {
        if webSocketRoutes.isEmpty { return nil }
        let path = Router.path(of: request.target)
        guard path.utf8.contains(0x25) else {
            // No percent-encoding: compare bytes, without decoding or copying the path.
            for index in webSocketRoutes.indices where HTTPSyntax.sameBytes(path, webSocketRoutes.keys[index]) {
                return webSocketRoutes.values[index]
            }
            return nil
        }
        return webSocketRoutes[String(path).removingPercentEncoding ?? String(path)]
    }
}

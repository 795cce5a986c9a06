import Dispatch
import Foundation
import Locking
import Logging

/// An HTTP/1.1 and WebSocket server on nonblocking sockets, driven by one epoll loop per core.
///
/// ```swift
/// var router = Router()
/// router.get("/hello", immediate: { _ in HTTPResponse(text: "Hello") })
/// let server = HTTPServer(configuration: .init(port: 0), router: router)
/// server.webSocket("/ws/echo") { session in session.messages.subscribe(session.outbound) }
/// let address = try server.start()
/// ```
public final class HTTPServer: @unchecked Sendable {
    // Sendable: set-up state is only changed before `start()`; `listener`, `group` and `context`
    // are guarded by `lock` afterwards.

    public let configuration: HTTPServerConfiguration
    private var router: Router
    private var webSocketRoutes: [String: WebSocketRoute] = [:]
    private let logger: Logger
    private var errorResponse: @Sendable (HTTPStatus, String) -> HTTPResponse = { status, message in
        HTTPResponse(status: status, text: "\(status.reason): \(message)\n")
    }
    private let lock = Lock()
    private var listener: Listener?
    private var group: EventLoopGroup?
    private var context: ServerContext?

    public init(
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(), router: Router = Router(),
        logger: Logger = Logger(label: "httpserver")
    ) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
    }

    /// Accepts WebSocket upgrades on `path`; `onSession` is called for every new session (on the
    /// connection's loop: attach subscribers, don't block). `admit`, when given, decides on each
    /// valid upgrade request (after the handshake checks) whether it is accepted — and may ask to
    /// be told when the session closes. Call before `start()`.
    public func webSocket(
        _ path: String, originCheck: (@Sendable (String?) -> Bool)? = nil,
        admit: (@Sendable (HTTPRequest) -> UpgradeDecision)? = nil,
        onSession: @escaping @Sendable (WebSocketSession) -> Void
    ) {
        let handshake = WebSocketHandshake(originCheck: originCheck, deflate: configuration.webSocket.deflate)
        webSocketRoutes[path] = WebSocketRoute(path: path, handshake: handshake, admit: admit, onSession: onSession)
    }

    /// How the server answers requests it rejects itself (malformed, too large, timed out).
    /// Call before `start()`.
    public func setErrorResponse(_ make: @escaping @Sendable (HTTPStatus, String) -> HTTPResponse) {
        errorResponse = make
    }

    /// Binds, listens and starts serving; returns the bound address (its port when 0 was asked).
    @discardableResult
    public func start() throws(SocketError) -> SocketAddress {
        signal(SIGPIPE, SIG_IGN)
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        let context = ServerContext(
            configuration: configuration, router: router, webSocketRoutes: webSocketRoutes, logger: logger,
            errorResponse: errorResponse
        )
        let group = try EventLoopGroup(count: configuration.loopCount)
        let listener: Listener
        do {
            listener = try Listener(
                address: address, backlog: configuration.backlog, group: group,
                maxConnections: configuration.maxConnections, logger: logger
            ) { connection in
                context.events.connections.increment()
                context.events.connectionsAccepted.increment()
                let handler = HTTPConnectionHandler(server: context)
                connection.handler = handler
                handler.start(connection)
            } onClose: {
                context.events.connections.decrement()
            }
        } catch {
            group.stop()
            throw error
        }
        lock.withLock {
            self.listener = listener
            self.group = group
            self.context = context
        }
        listener.start()
        logger.debug("listening on \(listener.address)")
        return listener.address
    }

    /// Open connections, HTTP and WebSocket.
    public var openConnections: Int { lock.withLock { listener }?.openConnections ?? 0 }

    /// Bytes held in user space for open connections: unwritten output plus WebSocket messages
    /// queued for the application (diagnostics and tests; it visits every loop).
    var bufferedBytes: Int {
        guard let group = lock.withLock({ group }) else { return 0 }
        return group.loops.reduce(0) { total, loop in
            total + loop.sync {
                loop.connections.reduce(0) { sum, timed in
                    guard let connection = timed as? Connection else { return sum }
                    let queued = (connection.handler as? WebSocketConnectionHandler)?.queuedInboundBytes ?? 0
                    return sum + connection.pendingOutputCount + queued
                }
            }
        }
    }

    /// Connections admitted since `start()` (with `openConnections`, how many have closed).
    public var acceptedConnections: Int { lock.withLock { listener }?.acceptedConnections ?? 0 }

    /// Whether `shutdown` has begun.
    public var isDraining: Bool { lock.withLock { context }?.isDraining ?? false }

    /// Graceful shutdown: stops accepting, closes idle HTTP connections, lets in-flight requests
    /// finish (their connections then close), closes WebSockets with 1001, and after
    /// `drainTimeout` closes whatever is left. Calls `completion` when every connection is gone.
    public func shutdown(completion: @escaping @Sendable () -> Void = {}) {
        guard let (listener, group, context) = lock.withLock({ () -> (Listener, EventLoopGroup, ServerContext)? in
            guard let listener, let group, let context else { return nil }
            return (listener, group, context)
        }) else {
            completion()
            return
        }
        context.startDraining()
        listener.stop()
        for loop in group.loops {
            loop.execute {
                for case let connection as Connection in loop.connections {
                    switch connection.handler {
                    case let http as HTTPConnectionHandler: http.closeIfIdle(connection)
                    case let webSocket as WebSocketConnectionHandler: webSocket.close(code: .goingAway, reason: "server shutting down")
                    default: connection.close()
                    }
                }
            }
        }
        let deadline = ContinuousClock.now + configuration.drainTimeout
        DispatchQueue.global().async { [logger] in
            while listener.openConnections > 0 && ContinuousClock.now < deadline {
                usleep(20_000)
            }
            if listener.openConnections > 0 {
                logger.warning("drain timeout: closing \(listener.openConnections) connections")
                for loop in group.loops {
                    loop.sync {
                        for case let connection as Connection in loop.connections { connection.close() }
                    }
                }
            }
            group.stop()
            completion()
        }
    }
}

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
/// server.webSocket("/ws/echo") { session in session.read(with: EchoReader(session)) }  // a WebSocketMessageReader
/// // or, with WebSocketPublishers: session.messages.subscribe(session.outbound)
/// let address = try server.start()
/// ```
public final class HTTPServer: Sendable {
    /// What `start()` builds the server from; changed only before it.
    struct Setup: Sendable {
        var router: Router
        var webSocketRoutes: [String: WebSocketRoute] = [:]
        var errorResponse: @Sendable (HTTPStatus, String) -> HTTPResponse = { status, message in
            HTTPResponse(status: status, text: "\(status.reason): \(message)\n")
        }
    }

    /// What a started server runs.
    struct Running: Sendable {
        let listener: Listener
        let group: EventLoopGroup
        let context: ServerContext
    }

    public let configuration: HTTPServerConfiguration
    private let logger: Logger
    /// The lifecycle: initial (set-up), running, draining, shutdown.
    private let state: Locked<HTTPServerStateMachine<Setup, Running>>

    public init(
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(), router: Router = Router(),
        logger: Logger = Logger(label: "httpserver")
    ) {
        self.configuration = configuration
        self.logger = logger
        state = Locked(HTTPServerStateMachine(Setup(router: router)))
    }

    /// Accepts WebSocket upgrades on `path`; `onSession` is called for every new session (on the
    /// connection's loop: attach subscribers, don't block). `admit`, when given, decides on each
    /// valid upgrade request (after the handshake checks) whether it is accepted — and may ask to
    /// be told when the session closes. Call before `start()` (afterwards it is ignored, with a
    /// warning).
    public func webSocket(
        _ path: String, originCheck: (@Sendable (String?) -> Bool)? = nil,
        admit: (@Sendable (HTTPRequest) -> UpgradeDecision)? = nil,
        onSession: @escaping @Sendable (WebSocketSession) -> Void
    ) {
        let handshake = WebSocketHandshake(originCheck: originCheck, deflate: configuration.webSocket.deflate)
        let route = WebSocketRoute(path: path, handshake: handshake, admit: admit, onSession: onSession)
        configure("webSocket(\(path))") { $0.webSocketRoutes[path] = route }
    }

    /// How the server answers requests it rejects itself (malformed, too large, timed out).
    /// Call before `start()` (afterwards it is ignored, with a warning).
    public func setErrorResponse(_ make: @escaping @Sendable (HTTPStatus, String) -> HTTPResponse) {
        configure("setErrorResponse") { $0.errorResponse = make }
    }

    private func configure(_ call: String, _ change: @Sendable (inout Setup) -> Void) {
        guard !state.withLock({ $0.configure(change) }) else { return }
        logger.warning("\(call) ignored: the server has started")
    }

    /// Binds, listens and starts serving; returns the bound address (its port when 0 was asked).
    /// Called again while running, it returns the same address; after `shutdown`, it throws
    /// (a server does not start twice).
    @discardableResult
    public func start() throws(SocketError) -> SocketAddress {
        signal(SIGPIPE, SIG_IGN)
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        let action = try state.withLock { (machine) throws(SocketError) in
            try machine.start { (setup) throws(SocketError) in try makeRunning(setup, address: address) }
        }
        switch action {
        case .start(let running):
            running.listener.start()
            logger.debug("listening on \(running.listener.address)")
            return running.listener.address
        case .alreadyRunning(let running):
            return running.listener.address
        case .refused:
            throw .systemCall("start after shutdown", errno: ESHUTDOWN)
        }
    }

    private func makeRunning(_ setup: Setup, address: SocketAddress) throws(SocketError) -> Running {
        let context = ServerContext(
            configuration: configuration, router: setup.router, webSocketRoutes: setup.webSocketRoutes, logger: logger,
            errorResponse: setup.errorResponse
        )
        let group = try EventLoopGroup(count: configuration.loopCount, timerSlack: configuration.timerSlack)
        do {
            let listener = try Listener(
                address: address, backlog: configuration.backlog, group: group,
                maxConnections: configuration.maxConnections, logger: logger
            ) { connection in
                context.events.connections.increment()
                context.events.connectionsAccepted.increment()
                let handler = HTTPConnectionHandler(server: context, loop: connection.loop)
                connection.handler = handler
                handler.start(connection)
            } onClose: {
                context.events.connections.decrement()
            } onDrained: { [weak self] in
                self?.drained()
            }
            return Running(listener: listener, group: group, context: context)
        } catch {
            group.stop()
            throw error
        }
    }

    private var running: Running? { state.withLock { $0.running } }

    /// Open connections, HTTP and WebSocket.
    public var openConnections: Int { running?.listener.openConnections ?? 0 }

    /// Bytes held in user space for open connections: unwritten output plus WebSocket messages
    /// queued for the application (diagnostics and tests; it visits every loop).
    var bufferedBytes: Int {
        guard let group = running?.group else { return 0 }
        return group.loops.reduce(0) { total, loop in
            total + loop.sync { loop.connections.reduce(0) { $0 + $1.bufferedBytes } }
        }
    }

    /// Connections admitted since `start()` (with `openConnections`, how many have closed).
    public var acceptedConnections: Int { running?.listener.acceptedConnections ?? 0 }

    /// Whether `shutdown` has begun.
    public var isDraining: Bool { state.withLock { $0.isDraining } }

    /// Graceful shutdown: stops accepting and tells every connection to quiesce (idle HTTP
    /// connections close, in-flight requests finish and their connections then close,
    /// WebSockets close with 1001); after `drainTimeout` closes whatever is left. Calls
    /// `completion` when every connection is gone and the loops have stopped (at once when the
    /// server never started or has shut down already; a call during the drain waits for it).
    public func shutdown(completion: @escaping @Sendable () -> Void = {}) {
        switch state.withLock({ $0.shutdown(completion) }) {
        case .none:
            return
        case .completeNow:
            completion()
        case .beginDrain(let running):
            running.context.startDraining()
            let drained = running.listener.stop()
            // Queued, never inline: after the connections the listener handed over before it stopped.
            for loop in running.group.loops {
                loop.enqueue { loop.connections.forEach { $0.quiesce() } }
            }
            let deadline = DispatchTime.now() + .nanoseconds(Int(configuration.drainTimeout / .nanoseconds(1)))
            DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in self?.drainDeadlinePassed() }
            if drained { self.drained() }
        }
    }

    /// The last connection closed (on its loop, or wherever the drain ended): the loops stop
    /// and the completions run, off the loops.
    private func drained() {
        guard case .finish(let running, let completions) = state.withLock({ $0.drained() }) else { return }
        DispatchQueue.global().async {
            running.group.stop()
            completions.forEach { $0() }
        }
    }

    /// The drain timeout passed with connections left: they are closed.
    private func drainDeadlinePassed() {
        guard case .forceClose(let running) = state.withLock({ $0.drainDeadlinePassed() }) else { return }
        logger.warning("drain timeout: closing \(running.listener.openConnections) connections")
        for loop in running.group.loops {
            loop.sync { loop.connections.forEach { $0.close() } }
        }
        drained()
    }
}

import Dispatch
import Foundation
import Locking
import Logging

/// Accepts connections on a listening socket and hands each to a loop of the group.
///
/// Enforces the connection limit: a connection over the limit is accepted and closed at once,
/// so it neither waits in the backlog nor costs more than a moment. When `accept` itself fails
/// (out of descriptors: EMFILE, ENFILE; out of memory), accepting pauses for
/// `exhaustedPause`: the pending connections wait in the backlog rather than the listener
/// spinning on a readiness it cannot act on, and it logs once per pause.
///
/// Its lifecycle (initial, accepting, paused, stopped) and connection count are a
/// `ListenerStateMachine` inside its lock; the read source lives in that state.
final class Listener: Sendable {
    /// How long accepting pauses after `accept` failed.
    static let exhaustedPause: Duration = .milliseconds(100)

    let socket: Socket
    let address: SocketAddress
    private let group: EventLoopGroup
    private let queue = DispatchQueue(label: "httpserver.accept")
    private let state: Locked<ListenerStateMachine<any DispatchSourceRead>>
    private let logger: Logger
    private let accept: @Sendable (Connection) -> Void
    private let onClose: @Sendable () -> Void
    private let onDrained: @Sendable () -> Void

    /// Binds and listens on `address`; `accept` is called on the new connection's loop,
    /// `onClose` when an admitted connection has closed, and `onDrained` once, when the last
    /// connection of a stopped listener has (unless `stop()` said none was open).
    init(
        address: SocketAddress, backlog: Int32, group: EventLoopGroup, maxConnections: Int, logger: Logger,
        accept: @escaping @Sendable (Connection) -> Void, onClose: @escaping @Sendable () -> Void,
        onDrained: @escaping @Sendable () -> Void = {}
    ) throws(SocketError) {
        socket = try Socket.listening(on: address, backlog: backlog)
        self.address = try socket.localAddress()
        self.group = group
        state = Locked(ListenerStateMachine(maxConnections: maxConnections))
        self.logger = logger
        self.accept = accept
        self.onClose = onClose
        self.onDrained = onDrained
    }

    /// The number of open connections.
    var openConnections: Int { state.withLock { $0.open } }

    /// The number of connections admitted since `start()`.
    var acceptedConnections: Int { state.withLock { $0.admitted } }

    /// Starts accepting (once; not after `stop()`).
    func start() {
        state.withLock { machine in
            let action = machine.start { [queue, socket] in
                let source = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: queue)
                source.setEventHandler { [unowned self] in acceptPending() }
                source.setCancelHandler { socket.close() }
                return source
            }
            perform(action)
        }
    }

    /// Stops accepting and closes the listening socket. Returns whether no connection is open:
    /// then `onDrained` is never called; else it is, once, when the last one closes. (Only the
    /// first call can return true.)
    @discardableResult
    func stop() -> Bool {
        state.withLock { machine in
            let (action, drained) = machine.stop()
            perform(action)
            return drained
        }
    }

    /// Carries out what the state machine asked for the source (with the lock held: the source
    /// lives in the state, and these calls do not run user code).
    private func perform(_ action: ListenerStateMachine<any DispatchSourceRead>.Action) {
        switch action {
        case .none:
            break
        case .resume(let source):
            source.resume()
        case .pause(let source):
            source.suspend()
            let resume = DispatchTime(uptimeNanoseconds: Deadline.after(Self.exhaustedPause).uptimeNanoseconds)
            queue.asyncAfter(deadline: resume) { [weak self] in
                guard let self else { return }
                state.withLock { perform($0.pauseEnded()) }
            }
        case .cancel(let source, let resumeFirst):
            if resumeFirst { source.resume() }
            source.cancel()
        }
    }

    /// An admitted connection closed (on its loop); `started`: it had reached `accept`, so
    /// `onClose` is told.
    private func connectionClosed(started: Bool = true) {
        let drained = state.withLock { $0.connectionClosed() }
        if started { onClose() }
        if drained { onDrained() }
    }

    private func acceptPending() {
        while true {
            let accepted: (Socket, SocketAddress)?
            do {
                accepted = try socket.accept()
            } catch {
                let paused = state.withLock { machine in
                    let action = machine.acceptFailed()
                    perform(action)
                    if case .pause = action { return true }
                    return false
                }
                if paused { logger.warning("accept failed: \(error); accepting again in \(Self.exhaustedPause)") }
                return
            }
            guard let (client, remote) = accepted else { return }
            let (admitted, limit) = state.withLock { ($0.admit(), $0.maxConnections) }
            guard admitted else {
                client.close()
                logger.debug("refused connection from \(remote): limit of \(limit) reached, or stopped")
                continue
            }
            let loop = group.next()
            let connection = Connection(socket: client, remote: remote, loop: loop) { [weak self] _ in
                self?.connectionClosed()
            }
            loop.enqueue { [self, accept] in
                do {
                    try connection.start()
                } catch {
                    logger.warning("dropped connection from \(remote): \(error)")
                    client.close()
                    connectionClosed(started: false)
                    return
                }
                accept(connection)
            }
        }
    }
}

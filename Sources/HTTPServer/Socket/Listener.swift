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
final class Listener: @unchecked Sendable {
    // Sendable: `socket` and `group` never change; `source` is set in `start()` before the
    // source can fire and afterwards, like `paused`, only touched on `queue`; `open`,
    // `admittedCount` and `accepting` are guarded by `lock`.

    /// How long accepting pauses after `accept` failed.
    static let exhaustedPause: Duration = .milliseconds(100)

    let socket: Socket
    let address: SocketAddress
    private let group: EventLoopGroup
    private let queue = DispatchQueue(label: "httpserver.accept")
    private var source: DispatchSourceRead?
    /// The source is suspended until the pause after a failed `accept` is over.
    private var paused = false
    private let lock = Lock()
    private var open = 0
    private var admittedCount = 0
    private var accepting = true
    private let maxConnections: Int
    private let logger: Logger
    private let accept: @Sendable (Connection) -> Void
    private let onClose: @Sendable () -> Void

    /// Binds and listens on `address`; `accept` is called on the new connection's loop.
    init(
        address: SocketAddress, backlog: Int32, group: EventLoopGroup, maxConnections: Int, logger: Logger,
        accept: @escaping @Sendable (Connection) -> Void, onClose: @escaping @Sendable () -> Void
    ) throws(SocketError) {
        socket = try Socket.listening(on: address, backlog: backlog)
        self.address = try socket.localAddress()
        self.group = group
        self.maxConnections = maxConnections
        self.logger = logger
        self.accept = accept
        self.onClose = onClose
    }

    /// The number of open connections.
    var openConnections: Int { lock.withLock { open } }

    /// The number of connections admitted since `start()`.
    var acceptedConnections: Int { lock.withLock { admittedCount } }

    func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: queue)
        source.setEventHandler { [unowned self] in acceptPending() }
        source.setCancelHandler { [socket] in socket.close() }
        self.source = source
        source.resume()
    }

    /// Stops accepting and closes the listening socket.
    func stop() {
        queue.sync {
            lock.withLock { accepting = false }
            if paused {
                paused = false
                source?.resume()  // a suspended source must not be cancelled and released
            }
            source?.cancel()
            source = nil
        }
    }

    /// Stops reading the listening socket for `exhaustedPause` (on `queue`).
    private func pause(after error: SocketError) {
        guard let source, !paused else { return }
        logger.warning("accept failed: \(error); accepting again in \(Self.exhaustedPause)")
        paused = true
        source.suspend()
        let resume = DispatchTime(uptimeNanoseconds: Deadline.after(Self.exhaustedPause).uptimeNanoseconds)
        queue.asyncAfter(deadline: resume) { [weak self] in
            guard let self, paused, let source = self.source else { return }
            paused = false
            source.resume()
        }
    }

    private func acceptPending() {
        while true {
            let accepted: (Socket, SocketAddress)?
            do {
                accepted = try socket.accept()
            } catch {
                return pause(after: error)
            }
            guard let (client, remote) = accepted else { return }
            let admitted = lock.withLock {
                guard accepting, open < maxConnections else { return false }
                open += 1
                admittedCount += 1
                return true
            }
            guard admitted else {
                client.close()
                logger.debug("refused connection from \(remote): limit of \(maxConnections) reached")
                continue
            }
            let loop = group.next()
            let connection = Connection(socket: client, remote: remote, loop: loop) { [weak self, onClose] _ in
                self?.lock.withLock { self?.open -= 1 }
                onClose()
            }
            loop.enqueue { [self, accept] in
                do {
                    try connection.start()
                } catch {
                    logger.warning("dropped connection from \(remote): \(error)")
                    client.close()
                    lock.withLock { open -= 1 }
                    return
                }
                accept(connection)
            }
        }
    }
}

/// One nonblocking TCP connect on an `EventLoop`: watches the socket until it turns writable,
/// then reports the connected socket or the error, or a timeout when the deadline passes
/// first. Confined to its loop; reports exactly once (nothing after `cancel()`).
final class SocketConnector: IOHandler, TimedConnection, @unchecked Sendable {
    // Sendable: every field is only touched on `loop`.
    typealias Completion = (Result<Socket, WebSocketClientError>) -> Void

    private enum State {
        case connecting(Socket, token: UInt64, Completion)
        case done
    }

    let loop: EventLoop
    var deadline: Deadline?
    private var state = State.done

    private init(loop: EventLoop) { self.loop = loop }

    /// Starts connecting to `address` (from `local`, when given; on the loop); `completion` runs on the loop, possibly
    /// before this returns (a connect that finishes at once, or fails at once).
    @discardableResult
    static func connect(
        to address: SocketAddress, from local: SocketAddress? = nil, on loop: EventLoop, timeout: Duration,
        completion: @escaping Completion
    ) -> SocketConnector {
        let connector = SocketConnector(loop: loop)
        do {
            switch try Socket.connecting(to: address, from: local) {
            case .connected(let socket):
                completion(.success(socket))
            case .inProgress(let socket):
                do {
                    let token = try loop.register(socket.fd, interest: .writable, handler: connector)
                    connector.state = .connecting(socket, token: token, completion)
                    connector.deadline = Deadline.after(timeout)
                    loop.watch(connector)
                } catch {
                    socket.close()
                    completion(.failure(.connectFailed(error)))
                }
            }
        } catch {
            completion(.failure(.connectFailed(error)))
        }
        return connector
    }

    /// Gives up: closes the socket, reports nothing.
    func cancel() {
        guard case .connecting(let socket, _, _) = state else { return }
        finish()
        socket.close()
    }

    func ready(_ event: IOEvent) {
        guard case .connecting(let socket, _, let completion) = state else { return }
        finish()
        if let error = socket.pendingError() {
            socket.close()
            completion(.failure(.connectFailed(error)))
        } else {
            completion(.success(socket))
        }
    }

    /// A connect in progress has nothing to finish: it is abandoned (reporting nothing).
    func quiesce() { cancel() }

    func close() { cancel() }

    var bufferedBytes: Int { 0 }

    func deadlinePassed() {
        guard case .connecting(let socket, _, let completion) = state else { return }
        finish()
        socket.close()
        completion(.failure(.timedOut))
    }

    /// Stops watching the socket (it stays open).
    private func finish() {
        guard case .connecting(let socket, let token, _) = state else { return }
        state = .done
        deadline = nil
        loop.unwatch(self)
        loop.deregister(socket.fd, token: token)
    }
}

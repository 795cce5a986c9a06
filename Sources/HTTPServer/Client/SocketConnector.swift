/// One nonblocking TCP connect on an `EventLoop`: watches the socket until it turns writable,
/// then reports the connected socket or the error, or a timeout when the deadline passes
/// first. Confined to its loop (a `LoopBound`); reports exactly once (nothing after `cancel()`).
final class SocketConnector: IOHandler, TimedConnection, Sendable {
    typealias Completion = (Result<Socket, WebSocketClientError>) -> Void

    private enum Phase {
        case connecting(Socket, token: UInt64, Completion)
        case done
    }

    private struct State {
        var phase = Phase.done
        var deadline: Deadline?

        /// Stops connecting: the socket and registration to let go of, nil if done already.
        mutating func finish() -> (Socket, token: UInt64, Completion)? {
            guard case .connecting(let socket, let token, let completion) = phase else { return nil }
            phase = .done
            deadline = nil
            return (socket, token, completion)
        }
    }

    let loop: EventLoop
    /// The connect in progress and its deadline: only on the loop.
    private let state: LoopBound<State>

    private init(loop: EventLoop) {
        self.loop = loop
        state = LoopBound(State(), loop: loop)
    }

    var deadline: Deadline? { state.value.deadline }

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
                    connector.state.value = State(
                        phase: .connecting(socket, token: token, completion), deadline: Deadline.after(timeout)
                    )
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
        guard let (socket, _) = finish() else { return }
        socket.close()
    }

    func ready(_ event: IOEvent) {
        guard let (socket, completion) = finish() else { return }
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
        guard let (socket, completion) = finish() else { return }
        socket.close()
        completion(.failure(.timedOut))
    }

    /// Stops watching the socket (it stays open); returns it and the completion to call, nil
    /// when the connect had already finished.
    private func finish() -> (Socket, Completion)? {
        guard let (socket, token, completion) = state.value.finish() else { return nil }
        loop.unwatch(self)
        loop.deregister(socket.fd, token: token)
        return (socket, completion)
    }
}

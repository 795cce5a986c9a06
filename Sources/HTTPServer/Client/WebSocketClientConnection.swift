/// One client WebSocket connection on its `EventLoop`, from the TCP connect through the
/// opening handshake to the closing one. The protocol itself is the server's: the same
/// `WebSocketStateMachine` (in the client role), `WebSocketReader` and `WebSocketWriter`; this
/// type performs what they decide and reports to the application through `onEvent`, on the
/// loop, ending with exactly one `.closed` or `.failed`.
///
/// Confined to its loop (its state is a `LoopBound`): every method runs there.
final class WebSocketClientConnection: ConnectionHandler, Sendable {
    typealias Event = WebSocketClient.Event

    /// The protocol once open: the state machine and the codec, as one reference so the loop
    /// can mutate them in place.
    final class OpenSession {
        var state: WebSocketStateMachine
        var reader: WebSocketReader
        let writer: WebSocketWriter

        init(state: WebSocketStateMachine, reader: WebSocketReader, writer: WebSocketWriter) {
            self.state = state
            self.reader = reader
            self.writer = writer
        }
    }

    private enum Phase {
        /// Resolving the host (no connector yet) or connecting.
        case connecting(SocketConnector?)
        /// The request is out; reading the response head.
        case handshaking(Connection, HTTPResponseHeadParser)
        /// The server refused the upgrade; reading the refusal's body for the error.
        case readingRefusal(Connection, HTTPResponseHead, body: [UInt8], length: Int)
        /// The WebSocket is open (or closing).
        case open(Connection, OpenSession)
        /// Over; the terminal event has been reported.
        case finished
    }

    private struct State {
        var phase = Phase.connecting(nil)
        /// Messages the application sent before the handshake completed, sent once it has.
        var pending: [WebSocketSession.Message] = []
        /// The terminal event, once known (the first cause wins); reported when the TCP
        /// connection closes.
        var outcome: Event?
        /// The application's handler; it holds the `WebSocketClient`, which keeps the client
        /// alive while the connection lives. Let go once the terminal event is reported.
        var onEvent: (@Sendable (Event) -> Void)?

        /// Ends: whether it was running, and the handler to report to.
        mutating func finish() -> (ended: Bool, handler: (@Sendable (Event) -> Void)?) {
            if case .finished = phase { return (false, nil) }
            phase = .finished
            pending = []
            defer { onEvent = nil }
            return (true, onEvent)
        }

        /// Records the terminal event unless one is known.
        mutating func record(_ event: Event) {
            if outcome == nil { outcome = event }
        }
    }

    let loop: EventLoop
    let handshake: WebSocketClientHandshake
    private var configuration: WebSocketClientConfiguration { handshake.configuration }
    /// The phase, what waits to be sent, the outcome, the application's handler: only on the loop.
    private let state: LoopBound<State>

    /// Created on any thread, before the loop sees it.
    init(handshake: WebSocketClientHandshake, loop: EventLoop) {
        self.handshake = handshake
        self.loop = loop
        state = LoopBound(sending: State(), loop: loop)
    }

    /// Sets the application's handler (on the loop, before anything else is queued there).
    func setOnEvent(_ onEvent: @escaping @Sendable (Event) -> Void) {
        state.value.onEvent = onEvent
    }

    /// Tells the application (outside any access to the state: it may call back).
    private func report(_ event: Event) {
        let onEvent = state.value.onEvent
        onEvent?(event)
    }

    // MARK: Connecting

    /// Connects to the first address that takes the connection.
    func connect(to addresses: [SocketAddress]) {
        guard case .connecting = state.value.phase else { return }
        guard let address = addresses.first else {
            finish(.failed(.unresolvableHost(handshake.host)))
            return
        }
        let connector = SocketConnector.connect(
            to: address, from: configuration.localAddress, on: loop, timeout: configuration.connectTimeout
        ) { [self] result in
            guard case .connecting = state.value.phase else {
                if case .success(let socket) = result { socket.close() }
                return
            }
            switch result {
            case .success(let socket): connected(socket, to: address)
            case .failure(let error) where addresses.count > 1 && error != .timedOut: connect(to: Array(addresses.dropFirst()))
            case .failure(let error): finish(.failed(error))
            }
        }
        if case .connecting(nil) = state.value.phase { state.value.phase = .connecting(connector) }
    }

    private func connected(_ socket: Socket, to address: SocketAddress) {
        let connection = Connection(socket: socket, remote: address, loop: loop) { _ in }
        connection.handler = self
        do {
            try connection.start()
        } catch {
            socket.close()
            finish(.failed(.connectFailed(error)))
            return
        }
        state.value.phase = .handshaking(connection, HTTPResponseHeadParser(maxBytes: configuration.maxResponseHeadBytes))
        connection.deadline = Deadline.after(configuration.handshakeTimeout)
        connection.write(handshake.request)
    }

    // MARK: Reading

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        switch state.value.phase {
        case .handshaking(let connection, var parser):
            let head: (HTTPResponseHead, [UInt8])?
            do {
                head = try parser.append(bytes)
            } catch {
                fail(connection, error)
                return
            }
            guard let (response, rest) = head else {
                state.value.phase = .handshaking(connection, parser)
                return
            }
            if response.status == 101 {
                do {
                    open(connection, try handshake.validate(response), leftover: rest)
                } catch {
                    fail(connection, error)
                }
            } else {
                // Content-Length bounds the body read, but never past the limit (nor below 0).
                let length = response.headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                let limit = max(0, min(length ?? configuration.maxRejectionBodyBytes, configuration.maxRejectionBodyBytes))
                state.value.phase = .readingRefusal(connection, response, body: [], length: limit)
                rest.withUnsafeBytes { readRefusal($0) }
            }
        case .readingRefusal:
            readRefusal(bytes)
        case .open(_, let session):
            session.reader.append(bytes)
            if let timer = session.state.bytesRead() { set(timer, on: connection) }
            readMessages(session, connection)
        case .connecting, .finished:
            return
        }
    }

    private func readRefusal(_ bytes: UnsafeRawBufferPointer) {
        guard case .readingRefusal(let connection, let head, var body, let length) = state.value.phase else { return }
        body.append(contentsOf: bytes.prefix(length - body.count))
        state.value.phase = .readingRefusal(connection, head, body: body, length: length)
        if body.count >= length { refused(connection) }
    }

    private func refused(_ connection: Connection) {
        guard case .readingRefusal(_, let head, let body, _) = state.value.phase else { return }
        fail(connection, .rejected(status: head.status, headers: head.headers, body: String(decoding: body, as: UTF8.self)))
    }

    func connectionDidReachEndOfInput(_ connection: Connection) {
        if case .readingRefusal = state.value.phase { refused(connection) }
        connection.close()
    }

    private func open(_ connection: Connection, _ agreement: WebSocketClientHandshake.Agreement, leftover: [UInt8]) {
        let deflate = agreement.deflate.flatMap {
            PerMessageDeflate(parameters: $0, role: .client, configuration: configuration.deflate ?? .init())
        }
        if agreement.deflate != nil, deflate == nil {
            fail(connection, .invalidHandshake("zlib could not start for the agreed permessage-deflate"))
            return
        }
        let session = OpenSession(
            state: WebSocketStateMachine(timing: configuration.timing, role: .client),
            reader: WebSocketReader(maxMessageSize: configuration.maxMessageBytes, deflate: deflate, role: .client),
            writer: WebSocketWriter(deflate: deflate, role: .client)
        )
        state.value.phase = .open(connection, session)
        set(session.state.initialTimer, on: connection)
        report(.opened(agreement))
        let queued = state.value.pending
        state.value.pending = []
        for message in queued { write(message, session, connection) }
        if !leftover.isEmpty {
            session.reader.append(leftover)
            readMessages(session, connection)
        }
    }

    /// Decodes and reports every complete message the reader holds.
    private func readMessages(_ session: OpenSession, _ connection: Connection) {
        while session.state.readsFrames {
            let message: WebSocketMessage?
            do {
                message = try session.reader.nextMessage()
            } catch {
                state.value.record(.failed(.protocolViolation(error)))
                perform(session.state.failed(error), reason: error.reason, session, connection)
                return
            }
            switch message {
            case nil:
                return
            case .text(let text):
                if session.state.isOpen { report(.message(.text(text))) }
            case .binary(let bytes):
                if session.state.isOpen { report(.message(.binary(bytes))) }
            case .ping(let payload):
                if session.state.pingReceived() { writeFrame(connection) { session.writer.writePong(payload, into: &$0) } }
            case .pong:
                break
            case .close(let code, let reason):
                state.value.record(.closed(code: code, reason: reason))
                perform(session.state.closeReceived(code: code), reason: "", session, connection)
            }
        }
    }

    // MARK: Writing

    /// Sends a message now, or once open when the handshake is still under way; ignored once
    /// closing.
    func send(_ message: WebSocketSession.Message) {
        switch state.value.phase {
        case .connecting, .handshaking: state.value.pending.append(message)
        case .open(let connection, let session): write(message, session, connection)
        case .readingRefusal, .finished: return
        }
    }

    private func write(_ message: WebSocketSession.Message, _ session: OpenSession, _ connection: Connection) {
        guard session.state.isOpen else { return }
        writeFrame(connection) { buffer in
            switch message {
            case .text(let text): session.writer.writeText(text, into: &buffer)
            case .binary(let bytes): session.writer.writeBinary(bytes, into: &buffer)
            }
        }
    }

    private func writeFrame(_ connection: Connection, _ build: (inout [UInt8]) -> Void) {
        var buffer: [UInt8] = []
        build(&buffer)
        connection.write(buffer)
    }

    // MARK: Closing and timing

    /// Starts the closing handshake; before the connection is open, abandons it (reported as
    /// `.closed` with 1006: no close frame was exchanged).
    func close(code: WebSocketCloseCode, reason: String) {
        switch state.value.phase {
        case .connecting(let connector):
            connector?.cancel()
            finish(.closed(code: .abnormalClosure, reason: "closed before the connection opened"))
        case .handshaking(let connection, _), .readingRefusal(let connection, _, _, _):
            state.value.record(.closed(code: .abnormalClosure, reason: "closed before the connection opened"))
            connection.close()
        case .open(let connection, let session):
            guard case .sendClose(let code, let timer) = session.state.closeRequested(code: code) else { return }
            writeFrame(connection) { session.writer.writeClose(code: code, reason: reason, into: &$0) }
            set(timer, on: connection)
        case .finished:
            return
        }
    }

    private func perform(
        _ action: WebSocketStateMachine.ClosingAction, reason: String, _ session: OpenSession, _ connection: Connection
    ) {
        switch action {
        case .none:
            return
        case .sendCloseThenCloseAfterFlush(let code):
            writeFrame(connection) { session.writer.writeClose(code: code, reason: reason, into: &$0) }
            connection.closeAfterFlush()
        case .closeAfterFlush:
            connection.closeAfterFlush()
        case .sendCloseThenAwaitPeerDisconnect(let code, let timer):
            writeFrame(connection) { session.writer.writeClose(code: code, reason: reason, into: &$0) }
            set(timer, on: connection)
        case .awaitPeerDisconnect(let timer):
            set(timer, on: connection)
        }
    }

    func connectionDeadlinePassed(_ connection: Connection) {
        connection.deadline = nil
        switch state.value.phase {
        case .open:
            break
        case .readingRefusal:
            // A refusal whose body never ends: report it with what came.
            refused(connection)
            return
        case .connecting, .handshaking, .finished:
            fail(connection, .timedOut)
            return
        }
        guard case .open(_, let session) = state.value.phase else { return }
        switch session.state.timerFired(readingPaused: false) {
        case .rearm(let timer):
            set(timer, on: connection)
        case .sendPing(let timer):
            writeFrame(connection) { session.writer.writePing(into: &$0) }
            set(timer, on: connection)
        case .closeConnection:
            connection.close()
        }
    }

    private func set(_ timer: WebSocketStateMachine.Timer, on connection: Connection) {
        switch timer {
        case .arm(let duration): connection.deadline = Deadline.after(duration)
        case .disarm: connection.deadline = nil
        }
    }

    /// Records `error` as the outcome and closes the TCP connection.
    private func fail(_ connection: Connection, _ error: WebSocketClientError) {
        state.value.record(.failed(error))
        connection.close()
    }

    func connectionDidClose(_ connection: Connection) {
        var event = state.value.outcome ?? .failed(.connectionLost)
        if case .open(_, let session) = state.value.phase {
            // We started the close and the server never answered it: closed, not cleanly.
            if state.value.outcome == nil, case .awaitingPeerClose = session.state.state {
                event = .closed(code: .abnormalClosure, reason: "")
            }
            session.state.connectionClosed()
        }
        finish(event)
    }

    /// Reports the terminal event, once.
    private func finish(_ event: Event) {
        let (ended, handler) = state.value.finish()
        if ended { handler?(event) }
    }
}

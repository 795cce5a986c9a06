import Dispatch

/// RFC 6455 on one upgraded connection: frames in and out, the closing handshake, keepalive
/// pings, and the bridge to the `WebSocketSession` the application sees. What happens in which
/// state is decided by two state machines, the protocol's (`WebSocketStateMachine`) and the
/// inbound messages' (`WebSocketInboundStateMachine`); this type performs it.
///
/// Confined to the connection's loop (its state is a `LoopBound`, checked in debug builds).
final class WebSocketConnectionHandler: ConnectionHandler, Sendable {
    /// The reader is reached through its reading (one reference to copy).
    typealias Inbound = WebSocketInboundStateMachine<WebSocketReading>

    let configuration: WebSocketConfiguration
    let session: WebSocketSession
    private let connection: Connection
    private let events: ServerEvents
    /// Frames in and out, the protocol, the inbound queue, the observers: only on the loop.
    private let state: LoopBound<State>

    /// Created on the connection's loop.
    init(
        connection: Connection, request: HTTPRequest, configuration: WebSocketConfiguration,
        deflate: PerMessageDeflate?, events: ServerEvents, onClose: (@Sendable () -> Void)? = nil
    ) {
        self.connection = connection
        self.configuration = configuration
        self.events = events
        state = LoopBound(
            State(
                reader: WebSocketReader(maxMessageSize: configuration.maxMessageBytes, deflate: deflate),
                writer: WebSocketWriter(deflate: deflate),
                machine: WebSocketStateMachine(timing: .init(configuration)),
                inbound: Inbound(limit: configuration.inboundQueueMessages),
                onClose: onClose
            ),
            loop: connection.loop
        )
        session = WebSocketSession(request: request, loop: connection.loop, outboundWindow: configuration.outboundWindow)
        session.handler = self
    }

    func start() {
        events.webSocketSessions.increment()
        set(state.value.machine.initialTimer)
    }

    /// Whether unwritten output is below the high-water mark.
    var hasRoomForOutput: Bool { connection.pendingOutputCount < configuration.outboundHighWaterBytes }

    /// Payload bytes of the messages waiting for the application.
    var queuedInboundBytes: Int { state.value.inbound.queuedBytes }

    // MARK: Reading

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        if let timer = state.value.bytesRead(bytes) { set(timer) }
        pump()
    }

    /// Delivers what the subscriber asked for and decodes what the reader holds while the
    /// queue has room (the reader may hold complete messages that no further socket read will
    /// announce: a client waiting for the echo of a burst), completes the publisher when input
    /// ended, and pauses reading while the queue is full.
    private func pump() {
        steps: while true {
            switch state.value.nextInboundStep() {
            case .deliver(let reading, let message):
                let demand = reading.reader?.read(message) ?? .none
                state.value.inbound.delivered(demand: demand)
            case .decode:
                decodeMessage()
            case .complete(let reading):
                let reader = reading?.end()
                reader?.readingEnded()
            case .idle:
                break steps
            }
        }
        // The connection's own state says whether reading is paused; it ignores a resume once
        // it closes.
        if state.value.inbound.isFull { connection.pauseReading() } else { connection.resumeReading() }
    }

    /// Takes one message or control frame from the reader.
    private func decodeMessage() {
        switch state.value.decodeMessage() {
        case .none:
            break
        case .received:
            events.messagesIn.increment()
        case .pong(let payload):
            writeFrame { $0.writePong(payload, into: &$1) }
        case .close(let action, let reason):
            perform(action, reason: reason)
        }
    }

    func attachInbound(_ reading: WebSocketReading) {
        switch state.value.inbound.attach(reading) {
        case .reject:
            let reader = reading.end()
            reader?.readingStarted(reading)
            reader?.readingEnded()
        case .subscribe:
            reading.reader?.readingStarted(reading)
            pump()
        }
    }

    func inboundRequested(_ demand: WebSocketDemand) {
        state.value.inbound.requested(demand)
        pump()
    }

    func inboundCancelled() {
        let reading = state.value.inbound.cancelled()
        reading?.end()
        pump()
    }

    // MARK: Writing

    func send(_ message: WebSocketSession.Message, enforceLimit: Bool) {
        guard state.value.machine.isOpen else { return }
        events.messagesOut.increment()
        var buffer: [UInt8] = []
        switch message {
        case .text(let text): state.value.writer.writeText(text, into: &buffer)
        case .binary(let bytes): state.value.writer.writeBinary(bytes, into: &buffer)
        }
        connection.write(buffer)
        if enforceLimit && connection.pendingOutputCount > configuration.outboundLimitBytes {
            let error = WebSocketError.policyViolation("client does not read its messages")
            perform(state.value.machine.failed(error), reason: error.reason)
        }
    }

    /// Builds a frame with the writer (nothing else may be touched meanwhile), then writes it
    /// once that access has ended: a failed write closes the connection, which comes back here.
    private func writeFrame(_ build: (WebSocketWriter, inout [UInt8]) -> Void) {
        var buffer: [UInt8] = []
        build(state.value.writer, &buffer)
        connection.write(buffer)
    }

    func register(_ observer: any WebSocketOutputObserver) {
        state.value.outputObservers[ObjectIdentifier(observer)] = observer
    }

    func unregister(_ observer: any WebSocketOutputObserver) {
        state.value.outputObservers[ObjectIdentifier(observer)] = nil
    }

    func connectionDidDrainOutput(_ connection: Connection) {
        let observers = state.value.outputObservers.values
        for observer in observers { observer.outputDrained() }
    }

    // MARK: Closing and timing

    /// Starts the closing handshake from the server side.
    func close(code: WebSocketCloseCode, reason: String) {
        switch state.value.machine.closeRequested(code: code) {
        case .none:
            return
        case .sendClose(let code, let timer):
            writeFrame { $0.writeClose(code: code, reason: reason, into: &$1) }
            set(timer)
            pump()
        }
    }

    private func perform(_ action: WebSocketStateMachine.ClosingAction, reason: String) {
        switch action {
        case .none:
            return
        case .sendCloseThenCloseAfterFlush(let code):
            writeFrame { $0.writeClose(code: code, reason: reason, into: &$1) }
            connection.closeAfterFlush()
        case .closeAfterFlush:
            connection.closeAfterFlush()
        case .sendCloseThenAwaitPeerDisconnect, .awaitPeerDisconnect:
            // Only a client's machine waits for its peer to disconnect.
            connection.closeAfterFlush()
        }
    }

    /// Graceful shutdown: the closing handshake with 1001 (going away).
    func connectionShouldQuiesce(_ connection: Connection) {
        close(code: .goingAway, reason: "server shutting down")
    }

    func connectionDeadlinePassed(_ connection: Connection) {
        switch state.value.timerFired() {
        case .rearm(let timer):
            set(timer)
        case .sendPing(let timer):
            writeFrame { $0.writePing(into: &$1) }
            set(timer)
        case .closeConnection:
            connection.close()
        }
    }

    private func set(_ timer: WebSocketStateMachine.Timer) {
        switch timer {
        case .arm(let duration): connection.deadline = Deadline.after(duration)
        case .disarm: connection.deadline = nil
        }
    }

    func connectionDidClose(_ connection: Connection) {
        state.value.machine.connectionClosed()
        pump()
        let (observers, closed) = state.value.takeObserversAndCloseHook()
        for observer in observers { observer.sessionClosed() }
        events.webSocketSessions.decrement()
        // The session stops reaching this handler: sends from now on do nothing, and neither
        // keeps the other alive.
        session.handler = nil
        closed?()
    }
}

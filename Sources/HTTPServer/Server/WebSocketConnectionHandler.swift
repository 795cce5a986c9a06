import Dispatch

/// RFC 6455 on one upgraded connection: frames in and out, the closing handshake, keepalive
/// pings, and the bridge to the `WebSocketSession` the application sees. What happens in which
/// state is decided by two state machines, the protocol's (`WebSocketStateMachine`) and the
/// inbound messages' (`WebSocketInboundStateMachine`); this type performs it.
///
/// Confined to the connection's loop.
final class WebSocketConnectionHandler: ConnectionHandler, @unchecked Sendable {
    // Sendable: confined to the connection's loop (one thread); closures capturing it run there.
    /// The reader is reached through its reading (one reference to copy).
    typealias Inbound = WebSocketInboundStateMachine<WebSocketReading>

    let configuration: WebSocketConfiguration
    let session: WebSocketSession
    private let connection: Connection
    private var reader: WebSocketReader
    private let writer: WebSocketWriter
    private let events: ServerEvents
    /// The protocol: open (with the keepalive), closing, closed.
    private var state: WebSocketStateMachine
    /// Received messages on their way to the application. Its reading keeps this handler alive
    /// after the connection closes until the queue is read; it lets go when the reading ends
    /// or is cancelled.
    private var inbound: Inbound
    private var outputObservers: [ObjectIdentifier: any WebSocketOutputObserver] = [:]
    /// The application's close hook from the upgrade decision; run once.
    private var onClose: (@Sendable () -> Void)?

    init(
        connection: Connection, request: HTTPRequest, configuration: WebSocketConfiguration,
        deflate: PerMessageDeflate?, events: ServerEvents, onClose: (@Sendable () -> Void)? = nil
    ) {
        self.connection = connection
        self.configuration = configuration
        self.events = events
        self.onClose = onClose
        reader = WebSocketReader(maxMessageSize: configuration.maxMessageBytes, deflate: deflate)
        writer = WebSocketWriter(deflate: deflate)
        state = WebSocketStateMachine(timing: .init(configuration))
        inbound = Inbound(limit: configuration.inboundQueueMessages)
        session = WebSocketSession(request: request, loop: connection.loop, outboundWindow: configuration.outboundWindow)
        session.handler = self
    }

    func start() {
        events.webSocketSessions.increment()
        set(state.initialTimer)
    }

    /// Whether unwritten output is below the high-water mark.
    var hasRoomForOutput: Bool { connection.pendingOutputCount < configuration.outboundHighWaterBytes }

    /// Payload bytes of the messages waiting for the application.
    var queuedInboundBytes: Int { inbound.queuedBytes }

    // MARK: Reading

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        reader.append(bytes)
        inbound.bytesArrived()
        if let timer = state.bytesRead() { set(timer) }
        pump()
    }

    private var input: Inbound.Input {
        state.isOpen ? .open : state.isClosed ? .closed : .ended
    }

    /// Delivers what the subscriber asked for and decodes what the reader holds while the
    /// queue has room (the reader may hold complete messages that no further socket read will
    /// announce: a client waiting for the echo of a burst), completes the publisher when input
    /// ended, and pauses reading while the queue is full.
    private func pump() {
        steps: while true {
            switch inbound.nextStep(input: input, readsFrames: state.readsFrames) {
            case .deliver(let reading, let message):
                let demand = reading.reader.read(message)
                inbound.delivered(demand: demand)
            case .decode:
                decodeMessage()
            case .complete(let reading):
                reading?.release()
                reading?.reader.readingEnded()
            case .idle:
                break steps
            }
        }
        // The connection's own state says whether reading is paused; it ignores a resume once
        // it closes.
        if inbound.isFull { connection.pauseReading() } else { connection.resumeReading() }
    }

    /// Takes one message or control frame from the reader.
    private func decodeMessage() {
        let message: WebSocketMessage?
        do {
            message = try reader.nextMessage()
        } catch {
            perform(state.failed(error), reason: error.reason)
            return
        }
        switch message {
        case nil:
            inbound.readerNeedsBytes()
        case .text(let text):
            events.messagesIn.increment()
            inbound.received(.text(text), input: input)
        case .binary(let bytes):
            events.messagesIn.increment()
            inbound.received(.binary(bytes), input: input)
        case .ping(let payload):
            if state.pingReceived() { writeFrame { writer.writePong(payload, into: &$0) } }
        case .pong:
            break
        case .close(let code, _):
            perform(state.closeReceived(code: code), reason: "")
        }
    }

    func attachInbound(_ reading: WebSocketReading) {
        switch inbound.attach(reading) {
        case .reject:
            reading.release()
            reading.reader.readingStarted(reading)
            reading.reader.readingEnded()
        case .subscribe:
            reading.reader.readingStarted(reading)
            pump()
        }
    }

    func inboundRequested(_ demand: WebSocketDemand) {
        inbound.requested(demand)
        pump()
    }

    func inboundCancelled() {
        inbound.cancelled()?.release()
        pump()
    }

    // MARK: Writing

    func send(_ message: WebSocketSession.Message, enforceLimit: Bool) {
        guard state.isOpen else { return }
        events.messagesOut.increment()
        writeFrame { buffer in
            switch message {
            case .text(let text): writer.writeText(text, into: &buffer)
            case .binary(let bytes): writer.writeBinary(bytes, into: &buffer)
            }
        }
        if enforceLimit && connection.pendingOutputCount > configuration.outboundLimitBytes {
            let error = WebSocketError.policyViolation("client does not read its messages")
            perform(state.failed(error), reason: error.reason)
        }
    }

    private func writeFrame(_ build: (inout [UInt8]) -> Void) {
        var buffer: [UInt8] = []
        build(&buffer)
        connection.write(buffer)
    }

    func register(_ observer: any WebSocketOutputObserver) {
        outputObservers[ObjectIdentifier(observer)] = observer
    }

    func unregister(_ observer: any WebSocketOutputObserver) {
        outputObservers[ObjectIdentifier(observer)] = nil
    }

    func connectionDidDrainOutput(_ connection: Connection) {
        for observer in outputObservers.values { observer.outputDrained() }
    }

    // MARK: Closing and timing

    /// Starts the closing handshake from the server side.
    func close(code: WebSocketCloseCode, reason: String) {
        switch state.closeRequested(code: code) {
        case .none:
            return
        case .sendClose(let code, let timer):
            writeFrame { writer.writeClose(code: code, reason: reason, into: &$0) }
            set(timer)
            pump()
        }
    }

    private func perform(_ action: WebSocketStateMachine.ClosingAction, reason: String) {
        switch action {
        case .none:
            return
        case .sendCloseThenCloseAfterFlush(let code):
            writeFrame { writer.writeClose(code: code, reason: reason, into: &$0) }
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
        switch state.timerFired(readingPaused: inbound.isFull) {
        case .rearm(let timer):
            set(timer)
        case .sendPing(let timer):
            writeFrame { writer.writePing(into: &$0) }
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
        state.connectionClosed()
        pump()
        let observers = outputObservers.values
        outputObservers = [:]
        for observer in observers { observer.sessionClosed() }
        events.webSocketSessions.decrement()
        let closed = onClose
        onClose = nil
        closed?()
    }
}

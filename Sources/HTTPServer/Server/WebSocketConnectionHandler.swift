import Dispatch
import StreamCore

/// RFC 6455 on one upgraded connection: frames in and out, the closing handshake, keepalive
/// pings, and the bridge to the `WebSocketSession` the application sees.
///
/// Confined to the connection's loop.
final class WebSocketConnectionHandler: ConnectionHandler, @unchecked Sendable {
    // Sendable: confined to the connection's loop (one thread); closures capturing it run there.
    let configuration: WebSocketConfiguration
    private(set) var session: WebSocketSession!
    private let connection: Connection
    private var reader: WebSocketReader
    private let writer: WebSocketWriter
    private var closing = WebSocketCloseHandshake()
    private let events: ServerEvents
    private var pingOutstanding = false
    /// No more messages will be queued (close received or sent, error, connection closed).
    private var inputEnded = false
    /// The messages publisher has completed.
    private var finished = false

    // Inbound: messages wait here until the subscriber asks for them.
    private var inboundQueue: [WebSocketSession.Message] = []
    private var inboundHead = 0
    private var inboundSubscriber: AnySubscriber<WebSocketSession.Message, Never>?
    /// Keeps this handler alive after the connection closes until the queue is delivered.
    private var inboundSubscription: InboundSubscription?
    private var inboundDemand = Subscribers.Demand.none
    private var inboundAttached = false
    private var inboundAbandoned = false
    private var delivering = false
    private var readPaused = false
    /// `readMessages` is running (delivery calls it back when it frees room).
    private var readingMessages = false

    private var outboundSubscribers: [ObjectIdentifier: OutboundSubscriber] = [:]
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
        session = WebSocketSession(request: request, loop: connection.loop, handler: self)
    }

    func start() {
        events.webSocketSessions.increment()
        armKeepalive()
    }

    /// Whether unwritten output is below the high-water mark.
    var hasRoomForOutput: Bool { connection.pendingOutputCount < configuration.outboundHighWaterBytes }

    // MARK: Reading

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        reader.append(bytes)
        pingOutstanding = false
        if closing.canSendData { armKeepalive() }
        readMessages()
    }

    private var queuedCount: Int { inboundQueue.count - inboundHead }

    /// Payload bytes of the messages waiting for the application.
    var queuedInboundBytes: Int {
        inboundQueue[inboundHead...].reduce(0) { sum, message in
            switch message {
            case .text(let text): sum + text.utf8.count
            case .binary(let bytes): sum + bytes.count
            }
        }
    }

    /// Decodes the messages the reader holds into the queue (up to its limit) and delivers
    /// them; repeats while delivery makes room, since the reader may hold complete messages that
    /// no further socket read will announce (a client waiting for the echo of a burst).
    private func readMessages() {
        guard !readingMessages else { return }
        readingMessages = true
        defer { readingMessages = false }
        while true {
            var decoded = 0
            while !connection.isClosed, queuedCount < configuration.inboundQueueMessages {
                let message: WebSocketMessage?
                do {
                    message = try reader.nextMessage()
                } catch {
                    fail(error)
                    return
                }
                guard let message else { break }
                decoded += 1
                switch message {
                case .text(let text): enqueue(.text(text))
                case .binary(let bytes): enqueue(.binary(bytes))
                case .ping(let payload):
                    if closing.canSendData { writeFrame { writer.writePong(payload, into: &$0) } }
                case .pong:
                    break
                case .close(let code, _):
                    receivedClose(code)
                    return
                }
            }
            deliverInbound()
            if decoded == 0 || connection.isClosed || queuedCount >= configuration.inboundQueueMessages { break }
        }
        let full = queuedCount >= configuration.inboundQueueMessages
        if full && !readPaused {
            readPaused = true
            connection.pauseReading()
        }
    }

    private func enqueue(_ message: WebSocketSession.Message) {
        events.messagesIn.increment()
        // Nobody will ever read it once the subscriber cancelled: drop, keep the connection alive.
        guard !inboundAbandoned, closing.canSendData else { return }
        inboundQueue.append(message)
    }

    private func deliverInbound() {
        guard !delivering, let subscriber = inboundSubscriber else { return }
        delivering = true
        while inboundDemand > 0, inboundHead < inboundQueue.count, inboundSubscriber != nil {
            let message = inboundQueue[inboundHead]
            inboundHead += 1
            inboundDemand -= 1
            inboundDemand += subscriber.receive(message)
        }
        if inboundHead == inboundQueue.count {
            inboundQueue.removeAll(keepingCapacity: false)
            inboundHead = 0
        } else if inboundHead > 64 {
            inboundQueue.removeFirst(inboundHead)
            inboundHead = 0
        }
        delivering = false
        completeIfDrained()
        // Room again: decode what the reader holds (readMessages ignores a nested call).
        if queuedCount < configuration.inboundQueueMessages, !connection.isClosed {
            if readPaused {
                readPaused = false
                connection.resumeReading()
            }
            readMessages()
        }
    }

    func attachInbound(_ subscriber: AnySubscriber<WebSocketSession.Message, Never>, session: WebSocketSession) {
        guard !inboundAttached, !finished else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: .finished)
            return
        }
        inboundAttached = true
        inboundSubscriber = subscriber
        let subscription = InboundSubscription(session: session, handler: self)
        inboundSubscription = subscription
        subscriber.receive(subscription: subscription)
    }

    func inboundRequested(_ demand: Subscribers.Demand) {
        guard inboundSubscriber != nil else { return }
        inboundDemand += demand
        deliverInbound()
    }

    func inboundCancelled() {
        inboundSubscriber = nil
        inboundAbandoned = true
        inboundQueue = []
        inboundHead = 0
        inboundSubscription?.release()
        inboundSubscription = nil
        if readPaused {
            readPaused = false
            connection.resumeReading()
            readMessages()
        }
    }

    // MARK: Writing

    func send(_ message: WebSocketSession.Message, enforceLimit: Bool) {
        guard closing.canSendData, !connection.isClosed else { return }
        events.messagesOut.increment()
        writeFrame { buffer in
            switch message {
            case .text(let text): writer.writeText(text, into: &buffer)
            case .binary(let bytes): writer.writeBinary(bytes, into: &buffer)
            }
        }
        if enforceLimit && connection.pendingOutputCount > configuration.outboundLimitBytes {
            fail(.policyViolation("client does not read its messages"))
        }
    }

    private func writeFrame(_ build: (inout [UInt8]) -> Void) {
        var buffer: [UInt8] = []
        build(&buffer)
        connection.write(buffer)
    }

    func register(_ subscriber: OutboundSubscriber) {
        outboundSubscribers[ObjectIdentifier(subscriber)] = subscriber
    }

    func unregister(_ subscriber: OutboundSubscriber) {
        outboundSubscribers[ObjectIdentifier(subscriber)] = nil
    }

    func connectionDidDrainOutput(_ connection: Connection) {
        for subscriber in outboundSubscribers.values { subscriber.drained() }
    }

    // MARK: Closing

    /// Starts the closing handshake from the server side.
    func close(code: WebSocketCloseCode, reason: String) {
        guard !connection.isClosed, closing.initiate(code: code) else { return }
        writeFrame { writer.writeClose(code: code, reason: reason, into: &$0) }
        connection.deadline = Deadline.after(configuration.closeTimeout)
        endInbound()
    }

    private func receivedClose(_ code: WebSocketCloseCode) {
        deliverInbound()
        endInbound()
        if let echo = closing.receive(code: code) {
            writeFrame { writer.writeClose(code: echo, into: &$0) }
        }
        // The server closes the TCP connection first once both close frames are out.
        connection.closeAfterFlush()
    }

    private func fail(_ error: WebSocketError) {
        if let code = closing.fail(with: error) {
            writeFrame { writer.writeClose(code: code, reason: error.reason, into: &$0) }
        }
        endInbound()
        connection.closeAfterFlush()
    }

    /// Heard from the client: the next ping (or, without pings, the idle close) is due later.
    /// A zero `pingInterval` sends no pings; a zero `idleTimeout` never closes an idle session.
    private func armKeepalive() {
        if configuration.pingInterval > 0 {
            connection.deadline = Deadline.after(configuration.pingInterval)
        } else {
            connection.deadline = configuration.idleTimeout > 0 ? Deadline.after(configuration.idleTimeout) : 0
        }
    }

    func connectionDeadlinePassed(_ connection: Connection) {
        if readPaused && closing.canSendData {
            // Reading waits for the application (back pressure): the client's frames, pongs
            // included, sit unread in the kernel, so its silence says nothing. Look again later.
            armKeepalive()
            return
        }
        guard closing.canSendData, !pingOutstanding, configuration.pingInterval > 0 else {
            // The client did not answer our close or our ping in time, or stayed idle too long.
            connection.close()
            return
        }
        pingOutstanding = true
        writeFrame { writer.writePing(into: &$0) }
        let grace = configuration.idleTimeout - configuration.pingInterval
        connection.deadline = configuration.idleTimeout > 0 ? Deadline.after(max(0.05, grace)) : 0
    }

    func connectionDidClose(_ connection: Connection) {
        endInbound()
        for subscriber in outboundSubscribers.values { subscriber.sessionClosed() }
        outboundSubscribers = [:]
        events.webSocketSessions.decrement()
        let closed = onClose
        onClose = nil
        closed?()
    }

    /// Nothing more will be queued: the messages publisher completes once the subscriber has
    /// taken what was received before (even after the connection closed).
    private func endInbound() {
        inputEnded = true
        completeIfDrained()
    }

    /// Completes the messages publisher once, when input ended and the queue is empty (or
    /// nobody will take it).
    private func completeIfDrained() {
        guard inputEnded, !finished, !delivering else { return }
        if queuedCount > 0 && !inboundAbandoned {
            // Wait for demand, or for a subscriber to attach while this handler is still alive.
            if inboundSubscriber != nil || !connection.isClosed { return }
        }
        finished = true
        inboundQueue = []
        inboundHead = 0
        let subscriber = inboundSubscriber
        inboundSubscriber = nil
        inboundSubscription?.release()
        inboundSubscription = nil
        subscriber?.receive(completion: .finished)
    }
}

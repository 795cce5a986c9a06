/// One accepted WebSocket connection, as the application sees it: `read(with:)` hands the
/// client's messages to a reader, `send` and `write` send back. Usable from any thread but for
/// the loop-only calls marked so; every other call hops to the connection's loop.
///
/// Back pressure runs end to end: the socket is read only while the reader wants more (beyond
/// a small queue, `WebSocketConfiguration.inboundQueueMessages`), and a writer that follows
/// back pressure (`write`, `addOutputObserver`) writes while there is room below
/// `outboundHighWaterBytes`, so a slow client never makes the server buffer without bound.
/// (`WebSocketPublishers` builds StreamCore's `messages` publisher and `outbound` subscriber on
/// this.)
public final class WebSocketSession: Sendable {

    /// An application message.
    public enum Message: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
    }

    /// The upgrade request (path, headers, query).
    public let request: HTTPRequest
    /// The event loop that owns the connection.
    public let loop: EventLoop
    /// How many messages a writer that follows back pressure asks for at first, before the
    /// socket has taken any (`WebSocketConfiguration.outboundWindow`).
    public let outboundWindow: Int
    /// The connection's handler until the connection closes (the handler then lets go of it,
    /// which ends the cycle the two form): only on the loop. Strong, not weak: a weak reference
    /// would send every retain and release of the handler, several per frame, down the slow
    /// path of an object with a side table.
    private let connectionHandler: LoopBound<WebSocketConnectionHandler?>

    /// Created on `loop`; `handler` is set by the handler that creates the session.
    init(request: HTTPRequest, loop: EventLoop, outboundWindow: Int) {
        self.request = request
        self.loop = loop
        self.outboundWindow = outboundWindow
        connectionHandler = LoopBound(nil, loop: loop)
    }

    /// The connection's handler, nil once the connection has closed (on the loop).
    var handler: WebSocketConnectionHandler? {
        get { connectionHandler.value }
        set { connectionHandler.value = newValue }
    }

    /// Hands the client's messages to `reader`, the session's one reader: its calls come on the
    /// loop, starting with `readingStarted`. A second reader, or one that comes after the
    /// session ended, is started and ended at once.
    public func read(with reader: any WebSocketMessageReader) {
        // The reader is only used on the loop, where this closure runs (the protocol's calls come
        // there); the caller hands it over. Not `sending`: a Combine subscriber wrapped in it is
        // not provably disconnected.
        nonisolated(unsafe) let reader = reader
        loop.execute { [self] in
            guard let handler else {
                let reading = WebSocketReading(loop: loop, handler: nil, reader: reader)
                reading.end()
                reader.readingStarted(reading)
                reader.readingEnded()
                return
            }
            handler.attachInbound(WebSocketReading(loop: loop, handler: handler, reader: reader))
        }
    }

    /// Sends one message outside back pressure (e.g. a greeting). A client that lets more than
    /// `outboundLimitBytes` pile up is disconnected with 1008.
    ///
    /// `send` and `close` take effect in the order they are called, from whatever threads: they
    /// are always queued on the loop, never run inline — a call made on the loop would otherwise
    /// overtake calls other threads queued just before it (seen under load as a lookup's
    /// `activity:false`, sent on the loop, arriving before its `activity:true`).
    public func send(_ message: Message) {
        loop.enqueue { [self] in handler?.send(message, enforceLimit: true) }
    }

    /// Runs `body` on the connection's loop once every message sent before this call has been
    /// handed to the socket (written, or buffered while the socket is full).
    public func afterPendingSends(_ body: @escaping @Sendable () -> Void) {
        loop.enqueue(body)
    }

    /// Starts the closing handshake; the connection closes when the client answers or after
    /// `closeTimeout`. Ordered with `send(_:)`.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        loop.enqueue { [self] in handler?.close(code: code, reason: reason) }
    }

    // MARK: Writing with back pressure (on the loop)

    /// On the loop: writes `message` at once (no outbound limit: the writer follows back
    /// pressure instead) and returns whether there is still room below the high-water mark;
    /// false also once the session has closed, when nothing is written.
    public func write(_ message: Message) -> Bool {
        precondition(loop.inLoop, "WebSocketSession.write is called on the session's loop")
        guard let handler else { return false }
        handler.send(message, enforceLimit: false)
        return handler.hasRoomForOutput
    }

    /// On the loop: `observer` is told when output drains and when the session closes (at once
    /// if it already has). The session holds it until then, or until `removeOutputObserver`.
    public func addOutputObserver(_ observer: any WebSocketOutputObserver) {
        precondition(loop.inLoop, "WebSocketSession.addOutputObserver is called on the session's loop")
        guard let handler else { return observer.sessionClosed() }
        handler.register(observer)
    }

    /// On the loop: stops telling `observer`.
    public func removeOutputObserver(_ observer: any WebSocketOutputObserver) {
        precondition(loop.inLoop, "WebSocketSession.removeOutputObserver is called on the session's loop")
        handler?.unregister(observer)
    }

}

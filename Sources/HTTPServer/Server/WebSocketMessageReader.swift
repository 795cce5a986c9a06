/// What an application does with the messages of a `WebSocketSession` (`read(with:)`): every
/// call comes on the session's event loop, in order. Reading follows the reader's demand: the
/// socket is read only while it wants more (beyond a small queue,
/// `WebSocketConfiguration.inboundQueueMessages`).
public protocol WebSocketMessageReader: AnyObject {
    /// Reading begins: `reading` asks for messages and stops them. Always called first, once.
    func readingStarted(_ reading: WebSocketReading)
    /// One message; returns how many more the reader wants now, on top of what it asked before.
    func read(_ message: WebSocketSession.Message) -> WebSocketDemand
    /// No more messages: the connection closed and the messages received before were read (or
    /// another reader was there first, or the session had already ended). Called once, last.
    func readingEnded()
}

/// A reader's hold on a session's messages: ask for more, or stop. Usable from any thread;
/// every call hops to the connection's loop. It keeps the connection's handler alive until the
/// messages received before the connection closed have been read.
public final class WebSocketReading: Sendable {
    private let loop: EventLoop
    /// The handler and the reader, until the reading ends: only on the loop.
    private let state: LoopBound<State>

    private struct State {
        var handler: WebSocketConnectionHandler?
        /// Let go of when the reading ends or is cancelled: a reader usually holds its reading
        /// (to ask for more), and the two would otherwise keep each other alive.
        var reader: (any WebSocketMessageReader)?
    }

    /// Created on `loop`.
    init(loop: EventLoop, handler: WebSocketConnectionHandler?, reader: any WebSocketMessageReader) {
        self.loop = loop
        state = LoopBound(State(handler: handler, reader: reader), loop: loop)
    }

    /// The application's reader, until the reading ends (on the loop).
    var reader: (any WebSocketMessageReader)? { state.value.reader }

    /// Asks for `demand` more messages.
    public func request(_ demand: WebSocketDemand) {
        loop.execute { [self] in
            let handler = state.value.handler  // the call may end the reading: not inside the access
            handler?.inboundRequested(demand)
        }
    }

    /// Stops reading: messages are dropped from now on; the connection stays open.
    public func cancel() {
        loop.execute { [self] in
            let handler = state.value.handler
            handler?.inboundCancelled()
        }
    }

    /// The reading ended or was cancelled: let go of the handler and the reader (on the loop).
    /// Returns the reader, for its last call.
    @discardableResult
    func end() -> (any WebSocketMessageReader)? {
        state.value.handler = nil
        let reader = state.value.reader
        state.value.reader = nil
        return reader
    }
}

/// Told, on the loop, when a session's unwritten output drains below the high-water mark and
/// when the session closes: what a writer that follows back pressure (`WebSocketSession.write`)
/// waits for.
public protocol WebSocketOutputObserver: AnyObject {
    /// The socket took what was waiting: there is room for more.
    func outputDrained()
    /// The session closed: nothing more will be written.
    func sessionClosed()
}

/// The protocol state of one WebSocket connection (RFC 6455), as a value: open with its
/// keepalive, closing (the close handshake, `WebSocketCloseHandshake`), closed. Pure: the
/// connection's owner feeds it frames, timer expiries and the application's close, and
/// performs the actions it returns (send a ping, a pong or a close frame, arm or disarm the
/// timer, close the TCP connection).
///
/// The same machine serves both ends; the `role` only changes who closes the TCP connection
/// once both close frames are out: the server at once, the client after waiting (up to the
/// close timeout) for the server to do it (RFC 6455 §7.1.1). Nothing in it depends on the
/// frame codec or the socket.
struct WebSocketStateMachine: Sendable, Equatable {
    /// Timing of the keepalive and the close; nil turns a timer off.
    struct Timing: Sendable, Equatable {
        /// A ping is sent after this long without a frame from the peer.
        var pingInterval: Duration?
        /// The connection is closed after this long without a frame (the ping included).
        var idleTimeout: Duration?
        /// After our close frame, how long to wait for the peer's.
        var closeTimeout: Duration

        init(pingInterval: Duration?, idleTimeout: Duration?, closeTimeout: Duration) {
            self.pingInterval = pingInterval
            self.idleTimeout = idleTimeout
            self.closeTimeout = closeTimeout
        }

        /// The server's configuration, zero (or less) meaning off.
        init(_ configuration: WebSocketConfiguration) {
            pingInterval = configuration.pingInterval > .zero ? configuration.pingInterval : nil
            idleTimeout = configuration.idleTimeout > .zero ? configuration.idleTimeout : nil
            closeTimeout = max(.zero, configuration.closeTimeout)
        }
    }

    /// The keepalive while open.
    enum Keepalive: Sendable, Equatable {
        /// Heard from the peer lately; the timer runs until the next ping (or the idle close).
        case listening
        /// A ping went out; any frame from the peer counts as the answer.
        case pingSent
    }

    enum State: Sendable, Equatable {
        /// No close frame sent or received: data flows both ways.
        case open(Keepalive)
        /// We sent a close frame; frames are still read (data is dropped) until the peer's
        /// close arrives or the close timeout passes.
        case awaitingPeerClose(WebSocketCloseHandshake)
        /// Nothing more is read or sent: the peer's close was answered, or the protocol failed.
        /// The TCP connection closes once our last frames have gone out.
        case flushing(WebSocketCloseHandshake)
        /// The TCP connection is closed.
        case closed
    }

    /// What to do with the timer.
    enum Timer: Sendable, Equatable {
        case arm(Duration)
        case disarm
    }

    let timing: Timing
    let role: WebSocketRole
    private(set) var state: State = .open(.listening)

    init(timing: Timing, role: WebSocketRole = .server) {
        self.timing = timing
        self.role = role
    }

    /// The timer to arm when the connection opens.
    var initialTimer: Timer { keepaliveTimer }

    /// Whether data messages may be sent (and received ones delivered).
    var isOpen: Bool {
        if case .open = state { true } else { false }
    }

    /// Whether frames are still read from the peer.
    var readsFrames: Bool {
        switch state {
        case .open, .awaitingPeerClose: true
        case .flushing, .closed: false
        }
    }

    /// Whether the TCP connection is closed.
    var isClosed: Bool { state == .closed }

    // MARK: Events

    /// Bytes arrived from the peer. Returns the timer to set, if it changes.
    mutating func bytesRead() -> Timer? {
        guard case .open = state else { return nil }
        state = .open(.listening)
        return keepaliveTimer
    }

    /// The peer pinged: whether to answer with a pong (not once closing).
    func pingReceived() -> Bool { isOpen }

    /// What to do when the timer passes.
    enum TimerAction: Sendable, Equatable {
        /// Nothing is wrong: set the timer again.
        case rearm(Timer)
        /// Ping the peer and give it until the timer passes to answer.
        case sendPing(then: Timer)
        /// The peer did not answer our ping or our close in time, or stayed idle too long.
        case closeConnection
    }

    /// The timer passed. `readingPaused`: the application is behind, so the peer's frames
    /// (pongs included) wait unread in the kernel and its silence says nothing.
    mutating func timerFired(readingPaused: Bool) -> TimerAction {
        switch state {
        case .open(.listening):
            if readingPaused { return .rearm(keepaliveTimer) }
            guard let pingInterval = timing.pingInterval else { return .closeConnection }
            state = .open(.pingSent)
            guard let idleTimeout = timing.idleTimeout else { return .sendPing(then: .disarm) }
            return .sendPing(then: .arm(max(.milliseconds(50), idleTimeout - pingInterval)))
        case .open(.pingSent):
            return readingPaused ? .rearm(keepaliveTimer) : .closeConnection
        case .awaitingPeerClose, .flushing, .closed:
            return .closeConnection
        }
    }

    /// What to do when the application closes.
    enum CloseAction: Sendable, Equatable {
        /// Send our close frame with the code and wait for the peer's.
        case sendClose(WebSocketCloseCode, then: Timer)
        /// A close frame was already sent (or the connection is gone).
        case none
    }

    mutating func closeRequested(code: WebSocketCloseCode) -> CloseAction {
        guard case .open = state else { return .none }
        var handshake = WebSocketCloseHandshake()
        _ = handshake.initiate(code: code)
        state = .awaitingPeerClose(handshake)
        return .sendClose(code, then: .arm(timing.closeTimeout))
    }

    /// What to do after the peer's close frame, or after a protocol failure.
    enum ClosingAction: Sendable, Equatable {
        /// Send a close frame with this code (1005: an empty one), then close the TCP
        /// connection once it has gone out.
        case sendCloseThenCloseAfterFlush(WebSocketCloseCode)
        /// Our close frame is out already: close the TCP connection once flushed.
        case closeAfterFlush
        /// A client answering the server's close: send a close frame with this code, then
        /// leave the TCP close to the server, closing it ourselves when the timer passes.
        case sendCloseThenAwaitPeerDisconnect(WebSocketCloseCode, then: Timer)
        /// A client whose close the server answered: wait for the server to close the TCP
        /// connection, closing it ourselves when the timer passes.
        case awaitPeerDisconnect(then: Timer)
        case none
    }

    /// The peer's close frame arrived.
    mutating func closeReceived(code: WebSocketCloseCode) -> ClosingAction {
        guard var handshake = handshakeStillReading else { return .none }
        let echo = handshake.receive(code: code)
        state = .flushing(handshake)
        switch role {
        case .server:
            return echo.map { .sendCloseThenCloseAfterFlush($0) } ?? .closeAfterFlush
        case .client:
            let wait = Timer.arm(timing.closeTimeout)
            return echo.map { .sendCloseThenAwaitPeerDisconnect($0, then: wait) } ?? .awaitPeerDisconnect(then: wait)
        }
    }

    /// The peer broke the protocol (or a limit): fail the connection with the error's code.
    mutating func failed(_ error: WebSocketError) -> ClosingAction {
        guard var handshake = handshakeStillReading else { return .none }
        let code = handshake.fail(with: error)
        state = .flushing(handshake)
        return code.map { .sendCloseThenCloseAfterFlush($0) } ?? .closeAfterFlush
    }

    /// The close handshake so far while frames are still read (a fresh one while open); nil
    /// once nothing more is read.
    private var handshakeStillReading: WebSocketCloseHandshake? {
        switch state {
        case .open: WebSocketCloseHandshake()
        case .awaitingPeerClose(let handshake): handshake
        case .flushing, .closed: nil
        }
    }

    /// The TCP connection closed (either side, or an error).
    mutating func connectionClosed() {
        state = .closed
    }

    /// The next ping, or without pings the idle close, is due this long after the peer's
    /// last frame.
    private var keepaliveTimer: Timer {
        if let pingInterval = timing.pingInterval { return .arm(pingInterval) }
        if let idleTimeout = timing.idleTimeout { return .arm(idleTimeout) }
        return .disarm
    }
}

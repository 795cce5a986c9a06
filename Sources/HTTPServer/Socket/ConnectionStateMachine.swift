/// The state of one socket connection, as a value: whether it reads, whether it closes once its
/// output is written, whether the peer's hang-up has been reported. Pure: `Connection` feeds it
/// what happened and performs what it answers.
struct ConnectionStateMachine: Sendable, Equatable {
    /// What is known of the peer's sending side while we do not read it.
    enum PeerInput: Sendable, Equatable {
        /// Not known to be shut down.
        case open
        /// Shut down (a FIN, or the peer is gone), and the handler has been told.
        case hungUp
    }

    enum State: Sendable, Equatable {
        /// Reading as data arrives; the end of input shows up as a read of zero bytes.
        case reading
        /// Reading is paused for back pressure; only the peer's hang-up is watched for.
        case paused(PeerInput)
        /// Nothing more is read or accepted for writing; the socket closes once the output
        /// is written.
        case closingAfterFlush(PeerInput)
        /// The socket is closed.
        case closed
    }

    private(set) var state: State = .reading

    init() {}

    var isClosed: Bool { state == .closed }

    /// Whether a readable socket should be read.
    var readsInput: Bool { state == .reading }

    /// Whether `write` takes new bytes (not once closing or closed).
    var acceptsOutput: Bool {
        switch state {
        case .reading, .paused: true
        case .closingAfterFlush, .closed: false
        }
    }

    /// What the loop should watch the socket for.
    func interest(hasPendingOutput: Bool) -> IOInterest {
        var wanted: IOInterest
        switch state {
        case .reading: wanted = .readable
        // While paused, a FIN is still worth knowing (a client gone while its request runs);
        // once told, level-triggered, it would be reported again and again.
        case .paused(.open), .closingAfterFlush(.open): wanted = .peerHangUp
        case .paused(.hungUp), .closingAfterFlush(.hungUp), .closed: wanted = []
        }
        if hasPendingOutput && state != .closed { wanted.insert(.writable) }
        return wanted
    }

    /// The handler asks for back pressure. Returns whether what to watch changed.
    mutating func pauseReading() -> Bool {
        guard state == .reading else { return false }
        state = .paused(.open)
        return true
    }

    /// The handler wants input again. Returns whether what to watch changed.
    mutating func resumeReading() -> Bool {
        guard case .paused = state else { return false }
        state = .reading
        return true
    }

    /// What `closeAfterFlush` does.
    enum CloseAfterFlushAction: Sendable, Equatable {
        /// Nothing waits to be written: close now.
        case closeNow
        /// Stop reading and close when the output is written.
        case waitForFlush
        /// Already closing or closed.
        case none
    }

    /// The handler wants the connection closed once what it wrote has gone out.
    mutating func closeAfterFlush(hasPendingOutput: Bool) -> CloseAfterFlushAction {
        switch state {
        case .reading:
            guard hasPendingOutput else { return .closeNow }
            state = .closingAfterFlush(.open)
            return .waitForFlush
        case .paused(let peer):
            guard hasPendingOutput else { return .closeNow }
            state = .closingAfterFlush(peer)
            return .waitForFlush
        case .closingAfterFlush, .closed:
            return .none
        }
    }

    /// What to do once all output has been written.
    enum FlushedAction: Sendable, Equatable {
        /// Tell the handler (a streamed body or a WebSocket publisher may go on).
        case notifyDrained
        /// The close that waited for this.
        case close
        case none
    }

    mutating func outputFlushed() -> FlushedAction {
        switch state {
        case .reading, .paused: .notifyDrained
        case .closingAfterFlush: .close
        case .closed: .none
        }
    }

    /// The socket reported the peer's hang-up. Returns whether to tell the handler: only while
    /// not reading (a reader meets the end of input) and only once.
    mutating func peerHungUp() -> Bool {
        switch state {
        case .paused(.open):
            state = .paused(.hungUp)
            return true
        case .closingAfterFlush(.open):
            state = .closingAfterFlush(.hungUp)
            return true
        case .reading, .paused(.hungUp), .closingAfterFlush(.hungUp), .closed:
            return false
        }
    }

    /// The socket is to be closed now (an error, the handler's wish, or a finished flush).
    /// Returns whether to tear it down: false if it already was.
    mutating func close() -> Bool {
        guard state != .closed else { return false }
        state = .closed
        return true
    }
}

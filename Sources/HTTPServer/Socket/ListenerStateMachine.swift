/// The lifecycle of a `Listener` and its connection count, as a value: each event (started,
/// `accept` failed, the pause over, stopped, a connection admitted or closed) changes the state
/// and says what the listener must do with its read source. It performs no I/O, so every
/// transition is tested in memory; the listener keeps it inside its lock. Generic over the
/// source so that tests can use a stand-in.
struct ListenerStateMachine<Source> {
    enum State {
        /// Created: the socket listens (connections wait in the backlog), nothing accepts yet.
        case initial
        /// The source reads the listening socket.
        case accepting(Source)
        /// `accept` failed (out of descriptors or memory): the source is suspended until the
        /// pause is over.
        case paused(Source)
        /// Stopped for good: the source is cancelled (which closes the socket); admitted
        /// connections may still be open.
        case stopped
    }

    /// What to do with the source.
    enum Action {
        case none
        /// Resume it (started, or the pause is over).
        case resume(Source)
        /// Suspend it, log the failure once, and end the pause after `Listener.exhaustedPause`.
        case pause(Source)
        /// Cancel it, resuming it first when suspended (a suspended source must not be
        /// cancelled and released).
        case cancel(Source, resumeFirst: Bool)
    }

    private(set) var state: State = .initial
    /// Connections admitted and not closed yet.
    private(set) var open = 0
    /// Connections admitted since the start.
    private(set) var admitted = 0
    let maxConnections: Int

    init(maxConnections: Int) {
        self.maxConnections = maxConnections
    }

    /// Starts accepting with the source `make` creates; only from `initial` (else `make` is not
    /// called and nothing happens).
    mutating func start(_ make: () -> Source) -> Action {
        guard case .initial = state else { return .none }
        let source = make()
        state = .accepting(source)
        return .resume(source)
    }

    /// `accept` failed: pause, unless paused or stopped already.
    mutating func acceptFailed() -> Action {
        guard case .accepting(let source) = state else { return .none }
        state = .paused(source)
        return .pause(source)
    }

    /// The pause is over: accept again, unless stopped meanwhile.
    mutating func pauseEnded() -> Action {
        guard case .paused(let source) = state else { return .none }
        state = .accepting(source)
        return .resume(source)
    }

    /// Stops for good. `drained`: this call stopped the listener and no connection is open, so
    /// `connectionClosed` will never report it (any other call: false).
    mutating func stop() -> (action: Action, drained: Bool) {
        switch state {
        case .initial:
            state = .stopped
            return (.none, open == 0)
        case .accepting(let source):
            state = .stopped
            return (.cancel(source, resumeFirst: false), open == 0)
        case .paused(let source):
            state = .stopped
            return (.cancel(source, resumeFirst: true), open == 0)
        case .stopped:
            return (.none, false)
        }
    }

    /// An accepted connection asks in: admitted (and counted) while accepting, under the limit.
    mutating func admit() -> Bool {
        guard case .accepting = state, open < maxConnections else { return false }
        open += 1
        admitted += 1
        return true
    }

    /// An admitted connection closed. Returns whether it was the last one of a stopped
    /// listener: true once at most.
    mutating func connectionClosed() -> Bool {
        precondition(open > 0, "more connections closed than were admitted")
        open -= 1
        guard case .stopped = state else { return false }
        return open == 0
    }
}

/// The lifecycle of an `HTTPServer`, as a value, after Hummingbird 2's server states: each
/// event (set-up, start, a shutdown asked, the last connection gone, the drain deadline) changes
/// the state and says what the server must do. It performs no I/O, so every transition is
/// tested in memory; the server keeps it inside its lock. Generic over what the server sets up
/// before it starts (`Setup`) and what it runs afterwards (`Running`) so that tests can use
/// stand-ins.
struct HTTPServerStateMachine<Setup, Running> {
    typealias Completion = @Sendable () -> Void

    enum State {
        /// Routes and error responses may still change.
        case initial(Setup)
        /// Listening and serving.
        case running(Running)
        /// A shutdown began: the listener is stopped and every connection was told to quiesce;
        /// `completions` run once the last connection has closed (or, after the drain deadline,
        /// the rest were closed).
        case draining(Running, completions: [Completion])
        /// Every connection is gone and the loops are stopping. `Running` stays for its counters.
        case shutdown(Running)
    }

    enum StartAction {
        /// Start what `make` built.
        case start(Running)
        /// Started already: nothing new; the caller answers with what runs.
        case alreadyRunning(Running)
        /// Shut down (or shutting down): a server does not start twice.
        case refused
    }

    enum ShutdownAction {
        /// Already shut down, or never started: run the completion now.
        case completeNow
        /// Stop the listener, tell every connection to quiesce, arm the drain deadline.
        case beginDrain(Running)
        /// Draining already: the completion runs with the others.
        case none
    }

    enum DrainAction {
        case none
        /// Stop the loops, then run the completions (once).
        case finish(Running, completions: [Completion])
    }

    enum DeadlineAction {
        case none
        /// Close every connection left; then the drain is over.
        case forceClose(Running)
    }

    private(set) var state: State

    init(_ setup: Setup) {
        state = .initial(setup)
    }

    /// Changes the set-up; false (and nothing changes) once started.
    mutating func configure(_ change: (inout Setup) -> Void) -> Bool {
        guard case .initial(var setup) = state else { return false }
        change(&setup)
        state = .initial(setup)
        return true
    }

    /// Starts with what `make` builds from the set-up (`make` is only called from `initial`;
    /// when it throws, the state stays `initial`).
    mutating func start<E: Error>(_ make: (Setup) throws(E) -> Running) throws(E) -> StartAction {
        switch state {
        case .initial(let setup):
            let running = try make(setup)
            state = .running(running)
            return .start(running)
        case .running(let running):
            return .alreadyRunning(running)
        case .draining, .shutdown:
            return .refused
        }
    }

    mutating func shutdown(_ completion: @escaping Completion) -> ShutdownAction {
        switch state {
        case .initial, .shutdown:
            return .completeNow
        case .running(let running):
            state = .draining(running, completions: [completion])
            return .beginDrain(running)
        case .draining(let running, var completions):
            completions.append(completion)
            state = .draining(running, completions: completions)
            return .none
        }
    }

    /// The last connection closed (or the ones left were closed at the deadline).
    mutating func drained() -> DrainAction {
        guard case .draining(let running, let completions) = state else { return .none }
        state = .shutdown(running)
        return .finish(running, completions: completions)
    }

    /// The drain deadline passed.
    func drainDeadlinePassed() -> DeadlineAction {
        guard case .draining(let running, _) = state else { return .none }
        return .forceClose(running)
    }

    /// What runs, once started (also while draining and after).
    var running: Running? {
        switch state {
        case .initial: nil
        case .running(let running), .draining(let running, _), .shutdown(let running): running
        }
    }

    /// Whether a shutdown began.
    var isDraining: Bool {
        switch state {
        case .initial, .running: false
        case .draining, .shutdown: true
        }
    }
}

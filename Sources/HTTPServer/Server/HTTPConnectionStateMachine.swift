/// The state of one HTTP/1.1 connection, as a value: waiting for a request, reading one,
/// answering one, closing, or handed over to WebSocket. Pure: `HTTPConnectionHandler` feeds it
/// what the parser, the socket, the timer and the application did, and performs the actions
/// it returns (which timer to arm, when to pause, resume or close).
///
/// One request is answered at a time (pipelined requests wait, in order); a timer is armed in
/// every state that waits on the client: the idle timeout between requests and while closing,
/// the request read timeout from a request's first byte, the idle timeout while a streamed body
/// waits for the client to read.
struct HTTPConnectionStateMachine: Sendable, Equatable {
    /// Whether the client can still send (it may half-close and wait for the answer).
    enum Input: Sendable, Equatable {
        case open
        case ended
    }

    /// A streamed response body, as the client's reading goes.
    enum Body: Sendable, Equatable {
        /// The client takes what is written.
        case flowing
        /// The producer waits for the client to read; the idle timeout runs.
        case stalled
    }

    enum State: Sendable, Equatable {
        /// Between requests; the idle timeout runs. `.ended` only transiently, while requests
        /// read before the end of input are taken from the parser.
        case idle(Input)
        /// Part of a request has arrived; the request read timeout runs.
        case readingRequest
        /// A request is being answered (inline, by an async handler, or an upgrade decision).
        case responding(Input)
        /// Its response body is being streamed.
        case streaming(Input, Body)
        /// The last response is written; the connection closes once it has gone out, or when
        /// the idle timeout passes.
        case closing
        /// A WebSocket handler owns the connection now.
        case upgraded
        /// The socket is closed.
        case closed
    }

    /// Which timer to arm; the handler maps each to its configured duration.
    enum Timer: Sendable, Equatable {
        case idle
        case requestRead
    }

    private(set) var state: State = .idle(.open)

    init() {}

    /// Whether the next request may be taken from the parser.
    var acceptsRequests: Bool {
        switch state {
        case .idle, .readingRequest: true
        case .responding, .streaming, .closing, .upgraded, .closed: false
        }
    }

    /// The timer to arm when the connection opens.
    var initialTimer: Timer { .idle }

    // MARK: Requests

    /// A complete request was parsed: answer it. Returns false if no request may start now.
    mutating func requestReceived() -> Bool {
        switch state {
        case .idle(let input):
            state = .responding(input)
            return true
        case .readingRequest:
            state = .responding(.open)
            return true
        case .responding, .streaming, .closing, .upgraded, .closed:
            return false
        }
    }

    /// What to do when the parser needs more bytes.
    enum AwaitAction: Sendable, Equatable {
        case none
        /// A request has begun: arm its read timeout.
        case armTimer(Timer)
        /// The client sent nothing more and every request it did send is answered.
        case closeAfterFlush(armTimer: Timer)
    }

    /// The parser has no complete request (and none is in flight); `partialRequest` says
    /// whether it holds the start of one.
    mutating func awaitingRequest(partialRequest: Bool) -> AwaitAction {
        switch state {
        case .idle(.open):
            guard partialRequest else { return .none }
            state = .readingRequest
            return .armTimer(.requestRead)
        case .idle(.ended):
            state = .closing
            return .closeAfterFlush(armTimer: .idle)
        case .readingRequest, .responding, .streaming, .closing, .upgraded, .closed:
            return .none
        }
    }

    /// The request could not be parsed: answer with an error and close (the timer bounds how
    /// long the client may take to read it). Returns false if nothing may be sent now.
    mutating func parseFailed() -> Bool {
        switch state {
        case .idle, .readingRequest:
            state = .closing
            return true
        case .responding, .streaming, .closing, .upgraded, .closed:
            return false
        }
    }

    // MARK: Responses

    /// An async handler (or upgrade decision) returned: whether to resume reading (not after
    /// the client half-closed).
    func handlerReturned() -> Bool {
        switch state {
        case .responding(.open), .streaming(.open, _): true
        default: false
        }
    }

    /// The response head went out and its body is streamed.
    mutating func streamingStarted() {
        guard case .responding(let input) = state else { return }
        state = .streaming(input, .flowing)
    }

    /// The streamed body's producer waits for the client. Returns the timer to arm, if any.
    mutating func bodyStalled() -> Timer? {
        guard case .streaming(let input, .flowing) = state else { return nil }
        state = .streaming(input, .stalled)
        return .idle
    }

    /// What to do when the socket's output drained.
    enum DrainedAction: Sendable, Equatable {
        case none
        /// Tell the body writer (its producer may go on).
        case notifyBodyWriter
        /// The client reads again: cancel the timer too.
        case cancelTimerAndNotifyBodyWriter
    }

    mutating func outputDrained() -> DrainedAction {
        switch state {
        case .streaming(let input, .stalled):
            state = .streaming(input, .flowing)
            return .cancelTimerAndNotifyBodyWriter
        case .streaming(_, .flowing):
            return .notifyBodyWriter
        default:
            return .none
        }
    }

    /// What to do when a response is complete.
    enum ResponseCompleteAction: Sendable, Equatable {
        /// Arm the idle timer and take the next request from the parser.
        case readNextRequest(armTimer: Timer)
        /// Close once the response has gone out, bounded by the timer.
        case closeAfterFlush(armTimer: Timer)
        case none
    }

    /// The response in flight is complete; `keepAlive` says whether it left the connection
    /// open for another.
    mutating func responseComplete(keepAlive: Bool) -> ResponseCompleteAction {
        let input: Input
        switch state {
        case .responding(let current), .streaming(let current, _): input = current
        default: return .none
        }
        guard keepAlive else {
            state = .closing
            return .closeAfterFlush(armTimer: .idle)
        }
        state = .idle(input)
        return .readNextRequest(armTimer: .idle)
    }

    /// A WebSocket handler took the connection over.
    mutating func upgraded() {
        state = .upgraded
    }

    // MARK: The client, the timer, the server

    /// What to do when the client half-closed.
    enum EndOfInputAction: Sendable, Equatable {
        /// A request is being answered: stop reading, answer it, then close.
        case pauseReading
        /// Close once what was written has gone out, bounded by the timer.
        case closeAfterFlush(armTimer: Timer)
        case none
    }

    mutating func endOfInput() -> EndOfInputAction {
        switch state {
        case .idle, .readingRequest, .closing:
            state = .closing
            return .closeAfterFlush(armTimer: .idle)
        case .responding:
            state = .responding(.ended)
            return .pauseReading
        case .streaming(_, let body):
            state = .streaming(.ended, body)
            return .pauseReading
        case .upgraded, .closed:
            return .none
        }
    }

    /// The client hung up while reading was paused. Returns whether to cancel the handler
    /// answering its request (what it still answers is sent, for a half-closed client).
    func peerHungUp() -> Bool {
        switch state {
        case .responding, .streaming: true
        default: false
        }
    }

    /// What to do when the timer passes.
    enum TimerAction: Sendable, Equatable {
        case none
        /// The client took too long: close now.
        case close
        /// A request did not arrive in time: answer 408 and close (bounded by the timer).
        case respondRequestTimeout(armTimer: Timer)
    }

    mutating func timerFired() -> TimerAction {
        switch state {
        case .idle, .closing, .streaming(_, .stalled):
            return .close
        case .readingRequest:
            state = .closing
            return .respondRequestTimeout(armTimer: .idle)
        case .responding, .streaming(_, .flowing), .upgraded, .closed:
            return .none
        }
    }

    /// Graceful shutdown: whether to close now (between requests), once the output is out.
    mutating func closeIfIdle() -> Bool {
        switch state {
        case .idle, .closing:
            state = .closing
            return true
        case .readingRequest, .responding, .streaming, .upgraded, .closed:
            return false
        }
    }

    /// The socket closed. Returns whether a handler or body may still run (cancel it).
    mutating func connectionClosed() -> Bool {
        let answering: Bool
        switch state {
        case .responding, .streaming: answering = true
        default: answering = false
        }
        state = .closed
        return answering
    }
}

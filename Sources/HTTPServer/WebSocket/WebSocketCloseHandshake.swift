/// The closing handshake of one connection (RFC 6455 section 7): who sent and received a
/// close frame, what to answer, and when the TCP connection may be closed.
public struct WebSocketCloseHandshake: Sendable, Equatable {
    /// Where the handshake stands.
    public enum State: Sendable, Equatable {
        /// No close frame sent or received.
        case open
        /// We sent a close frame and wait for the peer's.
        case closeSent(WebSocketCloseCode)
        /// The peer sent a close frame (and we have answered it).
        case closeReceived(WebSocketCloseCode)
        /// Both close frames have been exchanged: close the TCP connection.
        case closed
    }

    public private(set) var state: State = .open

    public init() {}

    /// Whether data messages may still be sent (no close frame sent yet).
    public var canSendData: Bool { state == .open }

    /// Whether both close frames have been exchanged.
    public var isComplete: Bool { state == .closed }

    /// Records a received close frame; returns the code to echo in our close frame (1005 means
    /// an empty close payload), or nil if we had already sent ours: the handshake is then
    /// complete and the server closes the TCP connection.
    public mutating func receive(code: WebSocketCloseCode) -> WebSocketCloseCode? {
        switch state {
        case .open:
            state = .closeReceived(code)
            return code
        case .closeSent:
            state = .closed
            return nil
        case .closeReceived, .closed:
            return nil
        }
    }

    /// Records that we start the close with `code`; returns false if a close frame was already
    /// sent (send nothing then).
    public mutating func initiate(code: WebSocketCloseCode) -> Bool {
        guard state == .open else { return false }
        state = .closeSent(code)
        return true
    }

    /// Records a protocol failure (we send `error.closeCode` and stop reading); returns the
    /// code to send, or nil if a close frame was already sent.
    public mutating func fail(with error: WebSocketError) -> WebSocketCloseCode? {
        switch state {
        case .open:
            state = .closeSent(error.closeCode)
            return error.closeCode
        case .closeReceived:
            state = .closed
            return nil
        case .closeSent, .closed:
            return nil
        }
    }
}

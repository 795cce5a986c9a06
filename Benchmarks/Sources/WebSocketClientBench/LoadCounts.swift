import HTTPServer

/// What a run counted, as wsload counts it: handshakes, connections open, and each kind of
/// error. Touched only on the event loop that delivers the clients' events.
struct LoadCounts: Sendable {
    /// Messages received (in echo mode, from the moment every connection was open).
    var messages = 0
    /// Messages whose length was not the size sent.
    var mismatched = 0
    private(set) var handshakes = 0
    private(set) var open = 0
    private(set) var connectFailures = 0
    private(set) var handshakeFailures = 0
    /// Connections that ended after opening (the server closed them, or broke them).
    private(set) var closedByServer = 0
    /// Whether each connection is open; a connection ends once, with `.closed` or `.failed`.
    private var isOpen: [Bool]

    init(connections: Int) {
        isOpen = Array(repeating: false, count: connections)
    }

    /// The errors that fail a run: in idle mode a connection the server closes is not one.
    func errors(idle: Bool) -> Int {
        connectFailures + handshakeFailures + mismatched + (idle ? 0 : closedByServer)
    }

    /// Connection `index` completed its handshake.
    mutating func opened(_ index: Int) {
        isOpen[index] = true
        handshakes += 1
        open += 1
    }

    /// Connection `index` ended, closed (`failure` nil) or failed.
    mutating func ended(_ index: Int, failure: WebSocketClientError?) {
        if isOpen[index] {
            isOpen[index] = false
            open -= 1
            closedByServer += 1
            return
        }
        switch failure {
        case .invalidURL?, .unresolvableHost?, .connectFailed?, .timedOut?, .connectionLost?:
            connectFailures += 1
        case .rejected?, .invalidHandshake?, .responseHeadTooLarge?, .protocolViolation?, nil:
            handshakeFailures += 1
        }
    }
}

extension WebSocketSession.Message {
    /// The payload's length in bytes.
    var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let bytes): bytes.count
        }
    }
}

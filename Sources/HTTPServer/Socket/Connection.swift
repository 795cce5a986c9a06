import Foundation

/// Buffered, nonblocking I/O on one accepted socket.
///
/// Confined to its `loop` (its state is a `LoopBound`, checked in debug builds): create it
/// anywhere, then call every method on the loop. Reads go through the
/// loop's shared buffer to the `handler`; writes are attempted at once and the rest is kept in
/// `output` until the socket is writable again (only then does the loop watch for
/// writability). Reading can be paused for back pressure. What it does in which state is
/// decided by its `ConnectionStateMachine`; this type performs the I/O.

final class Connection: TimedConnection, IOHandler, Sendable {
    let socket: Socket
    let loop: EventLoop
    let remote: SocketAddress
    private let onClose: @Sendable (Connection) -> Void
    /// Everything that changes, touched only on `loop` (checked in debug builds).
    private let state: LoopBound<State>

    /// Created on any thread (the listener's); used only on `loop` from `start()` on.
    init(socket: Socket, remote: SocketAddress, loop: EventLoop, onClose: @escaping @Sendable (Connection) -> Void) {
        self.socket = socket
        self.remote = remote
        self.loop = loop
        self.onClose = onClose
        state = LoopBound(sending: State(), loop: loop)
    }

    /// The protocol layer; replaced on a protocol upgrade, dropped on close.
    var handler: ConnectionHandler? {
        get { state.value.handler }
        set { state.value.handler = newValue }
    }

    /// When the handler is told its deadline passed; nil for none.
    var deadline: Deadline? {
        get { state.value.deadline }
        set { state.value.deadline = newValue }
    }

    /// Starts reading (on the loop). When the loop can't watch the socket, nothing has
    /// happened: the caller still owns the socket.
    func start() throws(SocketError) {
        let token = try loop.register(socket.fd, interest: .readable, handler: self)
        state.value.registered(token: token)
        loop.watch(self)
    }

    var isClosed: Bool { state.value.machine.isClosed }

    /// Bytes accepted by `write` that the socket has not taken yet.
    var pendingOutputCount: Int { state.value.pendingOutputCount }

    /// Sends `bytes`, buffering what the socket does not take now.
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write(contentsOf: $0) }
    }

    /// Sends the bytes, buffering what the socket does not take now.
    func write(contentsOf bytes: UnsafeRawBufferPointer) {
        switch state.value.write(bytes, to: socket) {
        case .done: break
        case .buffered: updateInterest()
        case .failed: close()
        }
    }

    /// Closes once everything buffered has been written; reads nothing more meanwhile.
    func closeAfterFlush() {
        switch state.value.closeAfterFlush() {
        case .closeNow: close()
        case .waitForFlush: updateInterest()
        case .none: break
        }
    }

    /// Stops reading from the socket (back pressure); the kernel buffer then fills and TCP
    /// slows the peer down.
    func pauseReading() {
        if state.value.machine.pauseReading() { updateInterest() }
    }

    func resumeReading() {
        if state.value.machine.resumeReading() { updateInterest() }
    }

    /// Closes the socket at once, dropping unwritten output.
    func close() {
        guard let closed = state.value.close() else { return }
        loop.unwatch(self)
        if let token = closed.token { loop.deregister(socket.fd, token: token) }
        socket.close()
        closed.handler?.connectionDidClose(self)
        onClose(self)
    }

    /// Passes graceful shutdown on to the protocol layer (closes at once without one).
    func quiesce() {
        if let handler { handler.connectionShouldQuiesce(self) } else { close() }
    }

    var bufferedBytes: Int { pendingOutputCount + (handler?.queuedInboundBytes ?? 0) }

    func deadlinePassed() {
        let handler = state.value.deadlinePassed()
        handler?.connectionDeadlinePassed(self)
    }

    func ready(_ event: IOEvent) {
        if event.writable { writable() }
        if event.readable || event.failed { readable() }
        // An error or hang-up: nothing more can be written, and a paused reader would be
        // told again and again.
        if event.failed { close() }
        if event.peerHangUp && state.value.machine.peerHungUp() {
            updateInterest()
            handler?.connectionPeerDidHangUp(self)
        }
    }

    private func readable() {
        let (readsInput, handler) = state.value.reading
        guard readsInput else { return }
        switch socket.read(into: loop.readBuffer) {
        case .bytes(let count):
            handler?.connection(self, didRead: UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
        case .wouldBlock:
            return
        case .endOfFile:
            if let handler { handler.connectionDidReachEndOfInput(self) } else { close() }
        case .failed:
            close()
        }
    }

    private func writable() {
        switch state.value.flush(to: socket) {
        case .closed, .blocked:
            return
        case .failed:
            close()
        case .flushed:
            updateInterest()
            switch state.value.machine.outputFlushed() {
            case .close: close()
            case .notifyDrained: handler?.connectionDidDrainOutput(self)
            case .none: break
            }
        }
    }

    /// Tells the loop what the state machine wants watched.
    private func updateInterest() {
        guard let (token, wanted) = state.value.interestChange else { return }
        do {
            try loop.reregister(socket.fd, token: token, interest: wanted)
            state.value.interest = wanted
        } catch {
            close()
        }
    }
}

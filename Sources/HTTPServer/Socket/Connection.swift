import Foundation

/// Buffered, nonblocking I/O on one accepted socket.
///
/// Confined to its `loop`: create it and call every method on the loop. Reads go through the
/// loop's shared buffer to the `handler`; writes are attempted at once and the rest is kept in
/// `output` until the socket is writable again (only then does the loop watch for
/// writability). Reading can be paused for back pressure. What it does in which state is
/// decided by its `ConnectionStateMachine`; this type performs the I/O.

final class Connection: TimedConnection, IOHandler, @unchecked Sendable {
    // Sendable: every mutable field is only touched on `loop`'s thread, which serialises access
    // the way a lock would; callers from elsewhere go through `loop.execute`.

    let socket: Socket
    let loop: EventLoop
    let remote: SocketAddress
    /// The protocol layer; replaced on a protocol upgrade, dropped on close.
    var handler: ConnectionHandler?
    /// When the handler is told its deadline passed; nil for none.
    var deadline: Deadline?

    private var token: UInt64?
    private var interest: IOInterest = []
    private var state = ConnectionStateMachine()
    private var output: [UInt8] = []
    private var outputOffset = 0
    private let onClose: @Sendable (Connection) -> Void

    init(socket: Socket, remote: SocketAddress, loop: EventLoop, onClose: @escaping @Sendable (Connection) -> Void) {
        self.socket = socket
        self.remote = remote
        self.loop = loop
        self.onClose = onClose
    }

    /// Starts reading (on the loop). When the loop can't watch the socket, nothing has
    /// happened: the caller still owns the socket.
    func start() throws(SocketError) {
        token = try loop.register(socket.fd, interest: .readable, handler: self)
        interest = .readable
        loop.watch(self)
    }

    var isClosed: Bool { state.isClosed }

    /// Bytes accepted by `write` that the socket has not taken yet.
    var pendingOutputCount: Int { output.count - outputOffset }

    /// Sends `bytes`, buffering what the socket does not take now.
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write(contentsOf: $0) }
    }

    /// Sends the bytes, buffering what the socket does not take now.
    func write(contentsOf bytes: UnsafeRawBufferPointer) {
        guard state.acceptsOutput, bytes.count > 0 else { return }
        if pendingOutputCount > 0 {
            output.append(contentsOf: bytes)
            return
        }
        switch socket.write(bytes) {
        case .wrote(let count) where count == bytes.count:
            return
        case .wrote(let count):
            output.append(contentsOf: bytes[count...])
            updateInterest()
        case .wouldBlock:
            output.append(contentsOf: bytes)
            updateInterest()
        case .failed:
            close()
        }
    }

    /// Closes once everything buffered has been written; reads nothing more meanwhile.
    func closeAfterFlush() {
        switch state.closeAfterFlush(hasPendingOutput: pendingOutputCount > 0) {
        case .closeNow: close()
        case .waitForFlush: updateInterest()
        case .none: break
        }
    }

    /// Stops reading from the socket (back pressure); the kernel buffer then fills and TCP
    /// slows the peer down.
    func pauseReading() {
        if state.pauseReading() { updateInterest() }
    }

    func resumeReading() {
        if state.resumeReading() { updateInterest() }
    }

    /// Closes the socket at once, dropping unwritten output.
    func close() {
        guard state.close() else { return }
        loop.unwatch(self)
        output = []
        outputOffset = 0
        if let token {
            loop.deregister(socket.fd, token: token)
            self.token = nil
        }
        socket.close()
        let handler = self.handler
        self.handler = nil
        handler?.connectionDidClose(self)
        onClose(self)
    }

    /// Passes graceful shutdown on to the protocol layer (closes at once without one).
    func quiesce() {
        if let handler { handler.connectionShouldQuiesce(self) } else { close() }
    }

    var bufferedBytes: Int { pendingOutputCount + (handler?.queuedInboundBytes ?? 0) }

    func deadlinePassed() {
        deadline = nil
        handler?.connectionDeadlinePassed(self)
    }

    func ready(_ event: IOEvent) {
        if event.writable { writable() }
        if event.readable || event.failed { readable() }
        // An error or hang-up: nothing more can be written, and a paused reader would be
        // told again and again.
        if event.failed { close() }
        if event.peerHangUp && state.peerHungUp() {
            updateInterest()
            handler?.connectionPeerDidHangUp(self)
        }
    }

    private func readable() {
        guard state.readsInput else { return }
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
        guard !state.isClosed else { return }
        while pendingOutputCount > 0 {
            let result = output.withUnsafeBytes { socket.write(UnsafeRawBufferPointer(rebasing: $0[outputOffset...])) }
            switch result {
            case .wrote(let count):
                outputOffset += count
            case .wouldBlock:
                compactOutput()
                return
            case .failed:
                close()
                return
            }
        }
        output.removeAll(keepingCapacity: false)
        outputOffset = 0
        updateInterest()
        switch state.outputFlushed() {
        case .close: close()
        case .notifyDrained: handler?.connectionDidDrainOutput(self)
        case .none: break
        }
    }

    /// Drops written bytes from the front once they are the larger part of the buffer.
    private func compactOutput() {
        if outputOffset > 64 * 1024 && outputOffset * 2 > output.count {
            output.removeFirst(outputOffset)
            outputOffset = 0
        }
    }

    /// Tells the loop what the state machine wants watched.
    private func updateInterest() {
        guard let token else { return }
        let wanted = state.interest(hasPendingOutput: pendingOutputCount > 0)
        guard wanted != interest else { return }
        do {
            try loop.reregister(socket.fd, token: token, interest: wanted)
            interest = wanted
        } catch {
            close()
        }
    }
}

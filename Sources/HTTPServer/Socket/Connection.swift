import Dispatch
import Foundation

/// Buffered, nonblocking I/O on one accepted socket.
///
/// Confined to its `loop`: create it and call every method on `loop.queue`. Reads go through
/// the loop's shared buffer to the `handler`; writes are attempted at once and the rest is kept
/// in `output` until the socket is writable again (the write source exists only meanwhile).
/// Reading can be paused for back pressure.
final class Connection: TimedConnection, @unchecked Sendable {
    // Sendable: every mutable field is only touched on `loop.queue` (a serial queue), which
    // serialises access the way a lock would; callers from elsewhere go through `loop.execute`.

    let socket: Socket
    let loop: EventLoop
    let remote: SocketAddress
    /// The protocol layer; replaced on a protocol upgrade, dropped on close.
    var handler: ConnectionHandler?
    /// Uptime in nanoseconds at which the handler is told its deadline passed; 0 for none.
    var deadline: UInt64 = 0

    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    private var readingPaused = false
    private var writeSourceRunning = false
    private var openSources = 0
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var closeWhenFlushed = false
    private(set) var isClosed = false
    private let onClose: @Sendable (Connection) -> Void

    init(socket: Socket, remote: SocketAddress, loop: EventLoop, onClose: @escaping @Sendable (Connection) -> Void) {
        self.socket = socket
        self.remote = remote
        self.loop = loop
        self.onClose = onClose
    }

    /// Starts reading (on the loop).
    func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: loop.queue)
        source.setEventHandler { [unowned self] in readable() }
        source.setCancelHandler { [self] in sourceCancelled() }
        openSources += 1
        readSource = source
        loop.watch(self)
        source.resume()
    }

    /// Bytes accepted by `write` that the socket has not taken yet.
    var pendingOutputCount: Int { output.count - outputOffset }

    /// Sends `bytes`, buffering what the socket does not take now.
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write(contentsOf: $0) }
    }

    /// Sends the bytes, buffering what the socket does not take now.
    func write(contentsOf bytes: UnsafeRawBufferPointer) {
        guard !isClosed, !closeWhenFlushed, bytes.count > 0 else { return }
        if pendingOutputCount > 0 {
            output.append(contentsOf: bytes)
            return
        }
        switch socket.write(bytes) {
        case .wrote(let count) where count == bytes.count:
            return
        case .wrote(let count):
            output.append(contentsOf: bytes[count...])
            startWriteSource()
        case .wouldBlock:
            output.append(contentsOf: bytes)
            startWriteSource()
        case .failed:
            close()
        }
    }

    /// Closes once everything buffered has been written.
    func closeAfterFlush() {
        guard !isClosed else { return }
        if pendingOutputCount == 0 {
            close()
        } else {
            closeWhenFlushed = true
            pauseReading()
        }
    }

    /// Stops reading from the socket (back pressure); the kernel buffer then fills and TCP
    /// slows the peer down.
    func pauseReading() {
        guard !isClosed, !readingPaused, let readSource else { return }
        readingPaused = true
        readSource.suspend()
    }

    func resumeReading() {
        guard !isClosed, readingPaused, !closeWhenFlushed, let readSource else { return }
        readingPaused = false
        readSource.resume()
    }

    /// Closes the socket at once, dropping unwritten output.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.unwatch(self)
        output = []
        outputOffset = 0
        if let readSource {
            if readingPaused { readSource.resume() }
            readSource.cancel()
        }
        if let writeSource {
            if !writeSourceRunning { writeSource.resume() }
            writeSource.cancel()
        }
        let handler = self.handler
        self.handler = nil
        handler?.connectionDidClose(self)
        onClose(self)
    }

    func deadlinePassed() {
        deadline = 0
        handler?.connectionDeadlinePassed(self)
    }

    private func readable() {
        guard !isClosed, !readingPaused else { return }
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
        guard !isClosed else { return }
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
        stopWriteSource()
        if closeWhenFlushed {
            close()
        } else {
            handler?.connectionDidDrainOutput(self)
        }
    }

    /// Drops written bytes from the front once they are the larger part of the buffer.
    private func compactOutput() {
        if outputOffset > 64 * 1024 && outputOffset * 2 > output.count {
            output.removeFirst(outputOffset)
            outputOffset = 0
        }
    }

    private func startWriteSource() {
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: socket.fd, queue: loop.queue)
            source.setEventHandler { [unowned self] in writable() }
            source.setCancelHandler { [self] in sourceCancelled() }
            openSources += 1
            writeSource = source
            writeSourceRunning = true
            source.resume()
        } else if !writeSourceRunning {
            writeSourceRunning = true
            writeSource?.resume()
        }
    }

    private func stopWriteSource() {
        guard writeSourceRunning, let writeSource else { return }
        writeSourceRunning = false
        writeSource.suspend()
    }

    /// The descriptor may only be closed once no source watches it any more.
    private func sourceCancelled() {
        openSources -= 1
        if openSources == 0 {
            readSource = nil
            writeSource = nil
            socket.close()
        }
    }
}

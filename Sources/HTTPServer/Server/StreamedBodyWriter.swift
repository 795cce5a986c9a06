/// Writes a streamed response body onto its connection, from any thread: each chunk hops to
/// the connection's loop, framed for `Transfer-Encoding: chunked` (or raw for HTTP/1.0).
/// Producers waiting in `whenReady` are called back when the connection drains or closes.
final class StreamedBodyWriter: ResponseBodyWriter, @unchecked Sendable {
    // Sendable: `connection`, `onFinish`, `finished` and `waiting` are only used on the
    // connection's loop (every call hops there first).
    private let connection: Connection
    private let chunked: Bool
    private let onFinish: () -> Void
    private let onStall: () -> Void
    private var finished = false
    private var waiting: [@Sendable () -> Void] = []

    /// `onFinish` runs when the body has ended; `onStall` whenever a producer starts waiting
    /// for the client, or gives up (both on the loop).
    init(connection: Connection, chunked: Bool, onFinish: @escaping () -> Void, onStall: @escaping () -> Void) {
        self.connection = connection
        self.chunked = chunked
        self.onFinish = onFinish
        self.onStall = onStall
    }

    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        connection.loop.execute { [self] in
            guard !finished, !connection.isClosed else { return }
            if chunked {
                var out: [UInt8] = []
                out.reserveCapacity(bytes.count + 16)
                HTTPChunkedEncoding.appendChunk(bytes, to: &out)
                connection.write(out)
            } else {
                connection.write(bytes)
            }
        }
    }

    func whenReady(_ body: @escaping @Sendable () -> Void) {
        connection.loop.execute { [self] in
            if isReady {
                // Queued, not inline: a producer that writes again from `body` must not recurse.
                connection.loop.enqueue(body)
            } else {
                waiting.append(body)
                onStall()
            }
        }
    }

    func finish() {
        connection.loop.execute { [self] in
            guard !finished else { return }
            finished = true
            if chunked && !connection.isClosed { connection.write(HTTPChunkedEncoding.lastChunk) }
            onFinish()
            releaseWaiting()
        }
    }

    func abort() {
        connection.loop.execute { [self] in
            guard !finished else { return }
            finished = true
            connection.closeAfterFlush()
            onStall()
            releaseWaiting()
        }
    }

    /// The connection wrote everything out, or closed (on the loop).
    func connectionDrainedOrClosed() {
        if isReady { releaseWaiting() }
    }

    private var isReady: Bool {
        finished || connection.isClosed || connection.pendingOutputCount < ResponseBodyWriterDefaults.readyThresholdBytes
    }

    private func releaseWaiting() {
        let callbacks = waiting
        waiting = []
        callbacks.forEach { $0() }
    }
}

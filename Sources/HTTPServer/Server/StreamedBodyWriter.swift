/// Writes a streamed response body onto its connection, from any thread: each chunk hops to
/// the connection's loop, framed for `Transfer-Encoding: chunked` (or raw for HTTP/1.0).
/// Producers waiting in `whenReady` are called back when the connection drains or closes.
final class StreamedBodyWriter: ResponseBodyWriter, Sendable {
    private let connection: Connection
    private let chunked: Bool
    /// The callbacks, whether the body ended, the producers waiting: only on the loop (every
    /// call hops there first).
    private let state: LoopBound<State>

    private struct State {
        let onFinish: () -> Void
        let onStall: () -> Void
        var finished = false
        var waiting: [@Sendable () -> Void] = []

        /// Ends the body: the callbacks, nil if it had ended.
        mutating func end() -> (onFinish: () -> Void, onStall: () -> Void)? {
            guard !finished else { return nil }
            finished = true
            return (onFinish, onStall)
        }

        mutating func takeWaiting() -> [@Sendable () -> Void] {
            defer { waiting = [] }
            return waiting
        }
    }

    /// `onFinish` runs when the body has ended; `onStall` whenever a producer starts waiting
    /// for the client, or gives up (both on the loop). Created on the connection's loop.
    init(connection: Connection, chunked: Bool, onFinish: @escaping () -> Void, onStall: @escaping () -> Void) {
        self.connection = connection
        self.chunked = chunked
        state = LoopBound(State(onFinish: onFinish, onStall: onStall), loop: connection.loop)
    }

    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        connection.loop.execute { [self] in
            guard !state.value.finished, !connection.isClosed else { return }
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
                state.value.waiting.append(body)
                let onStall = state.value.onStall
                onStall()
            }
        }
    }

    func finish() {
        connection.loop.execute { [self] in
            guard let onFinish = state.value.end()?.onFinish else { return }
            if chunked && !connection.isClosed { connection.write(HTTPChunkedEncoding.lastChunk) }
            onFinish()
            releaseWaiting()
        }
    }

    func abort() {
        connection.loop.execute { [self] in
            guard let onStall = state.value.end()?.onStall else { return }
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
        state.value.finished || connection.isClosed
            || connection.pendingOutputCount < ResponseBodyWriterDefaults.readyThresholdBytes
    }

    private func releaseWaiting() {
        let callbacks = state.value.takeWaiting()
        callbacks.forEach { $0() }
    }
}

extension Connection {
    /// A connection's loop-only state and the I/O on its output buffer. Its methods call
    /// nothing outside it (the socket's system calls aside): they return what the connection
    /// does next, once the access has ended.
    struct State {
        /// The protocol layer; replaced on a protocol upgrade, dropped on close.
        var handler: ConnectionHandler?
        /// When the handler is told its deadline passed; nil for none.
        var deadline: Deadline?
        var token: UInt64?
        var interest: IOInterest = []
        var machine = ConnectionStateMachine()
        var output: [UInt8] = []
        var outputOffset = 0

        /// What a write left to do.
        enum WriteOutcome {
            /// Written whole, buffered behind earlier output, or dropped (closing).
            case done
            /// Some of it is buffered: watch for writability.
            case buffered
            case failed
        }

        /// What flushing the buffered output came to.
        enum FlushOutcome {
            case closed
            /// The socket took what it could; the rest waits for writability.
            case blocked
            case failed
            /// Everything is written.
            case flushed
        }

        var pendingOutputCount: Int { output.count - outputOffset }

        /// Whether the connection reads, and whom it tells.
        var reading: (Bool, ConnectionHandler?) { (machine.readsInput, handler) }

        /// The registration's token and the interest the state machine wants, when that
        /// differs from the registered one.
        var interestChange: (UInt64, IOInterest)? {
            guard let token else { return nil }
            let wanted = machine.interest(hasPendingOutput: pendingOutputCount > 0)
            return wanted == interest ? nil : (token, wanted)
        }

        mutating func registered(token: UInt64) {
            self.token = token
            interest = .readable
        }

        mutating func write(_ bytes: UnsafeRawBufferPointer, to socket: Socket) -> WriteOutcome {
            guard machine.acceptsOutput, bytes.count > 0 else { return .done }
            if pendingOutputCount > 0 {
                output.append(contentsOf: bytes)
                return .done
            }
            switch socket.write(bytes) {
            case .wrote(let count) where count == bytes.count:
                return .done
            case .wrote(let count):
                output.append(contentsOf: bytes[count...])
                return .buffered
            case .wouldBlock:
                output.append(contentsOf: bytes)
                return .buffered
            case .failed:
                return .failed
            }
        }

        /// Writes out what is buffered, as far as the socket takes it.
        mutating func flush(to socket: Socket) -> FlushOutcome {
            guard !machine.isClosed else { return .closed }
            while pendingOutputCount > 0 {
                let offset = outputOffset
                let result = output.withUnsafeBytes { socket.write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
                switch result {
                case .wrote(let count):
                    outputOffset += count
                case .wouldBlock:
                    compactOutput()
                    return .blocked
                case .failed:
                    return .failed
                }
            }
            output.removeAll(keepingCapacity: false)
            outputOffset = 0
            return .flushed
        }

        mutating func closeAfterFlush() -> ConnectionStateMachine.CloseAfterFlushAction {
            machine.closeAfterFlush(hasPendingOutput: pendingOutputCount > 0)
        }

        /// Closes: drops the output, the registration and the handler, returned for the
        /// connection to let go of; nil when already closed.
        mutating func close() -> (token: UInt64?, handler: ConnectionHandler?)? {
            guard machine.close() else { return nil }
            output = []
            outputOffset = 0
            defer {
                token = nil
                handler = nil
            }
            return (token, handler)
        }

        /// Clears the deadline; returns the handler to tell.
        mutating func deadlinePassed() -> ConnectionHandler? {
            deadline = nil
            return handler
        }

        /// Drops written bytes from the front once they are the larger part of the buffer.
        private mutating func compactOutput() {
            if outputOffset > 64 * 1024 && outputOffset * 2 > output.count {
                output.removeFirst(outputOffset)
                outputOffset = 0
            }
        }
    }
}

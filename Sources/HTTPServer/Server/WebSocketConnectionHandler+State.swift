extension WebSocketConnectionHandler {
    /// A WebSocket connection's state, touched only on its loop. Its methods call nothing
    /// outside it: readers, observers and the close hook are called by the handler once the
    /// access has ended.
    struct State {
        var reader: WebSocketReader
        let writer: WebSocketWriter
        /// The protocol: open (with the keepalive), closing, closed.
        var machine: WebSocketStateMachine
        /// Received messages on their way to the application. Its reading keeps the handler
        /// alive after the connection closes until the queue is read; it lets go when the
        /// reading ends or is cancelled.
        var inbound: Inbound
        var outputObservers: [ObjectIdentifier: any WebSocketOutputObserver] = [:]
        /// The application's close hook from the upgrade decision; run once.
        var onClose: (@Sendable () -> Void)?

        /// What decoding one message came to.
        enum Decoded {
            /// Nothing for the handler to do (more bytes needed, a pong, a ping while closing).
            case none
            /// A message went into the inbound queue.
            case received
            /// A ping to answer.
            case pong([UInt8])
            /// A close frame, or a protocol error: the closing action.
            case close(WebSocketStateMachine.ClosingAction, reason: String)
        }

        private var input: Inbound.Input {
            machine.isOpen ? .open : machine.isClosed ? .closed : .ended
        }

        /// Bytes arrived: the timer to set, if any.
        mutating func bytesRead(_ bytes: UnsafeRawBufferPointer) -> WebSocketStateMachine.Timer? {
            reader.append(bytes)
            inbound.bytesArrived()
            return machine.bytesRead()
        }

        mutating func nextInboundStep() -> Inbound.Step {
            inbound.nextStep(input: input, readsFrames: machine.readsFrames)
        }

        /// Takes one message or control frame from the reader.
        mutating func decodeMessage() -> Decoded {
            let message: WebSocketMessage?
            do {
                message = try reader.nextMessage()
            } catch {
                return .close(machine.failed(error), reason: error.reason)
            }
            switch message {
            case nil:
                inbound.readerNeedsBytes()
                return .none
            case .text(let text):
                inbound.received(.text(text), input: input)
                return .received
            case .binary(let bytes):
                inbound.received(.binary(bytes), input: input)
                return .received
            case .ping(let payload):
                return machine.pingReceived() ? .pong(payload) : .none
            case .pong:
                return .none
            case .close(let code, _):
                return .close(machine.closeReceived(code: code), reason: "")
            }
        }

        mutating func timerFired() -> WebSocketStateMachine.TimerAction {
            machine.timerFired(readingPaused: inbound.isFull)
        }

        /// The observers to tell and the close hook to run, once, as the connection closes.
        mutating func takeObserversAndCloseHook() -> ([any WebSocketOutputObserver], (@Sendable () -> Void)?) {
            defer {
                outputObservers = [:]
                onClose = nil
            }
            return (Array(outputObservers.values), onClose)
        }
    }
}

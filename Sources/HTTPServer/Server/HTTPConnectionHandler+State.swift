extension HTTPConnectionHandler {
    /// A connection's HTTP state, touched only on its loop. Its methods call nothing outside
    /// it: what the handler does next (cancel a task, tell a body writer) it does once the
    /// access has ended.
    struct State {
        var parser: HTTPRequestParser
        var serializer = HTTPResponseSerializer()
        var compressor: ResponseCompressor?
        /// What the connection is doing; decides timers, pausing and closing.
        var machine = HTTPConnectionStateMachine()
        /// The async handler answering the request in flight, if any.
        var handlerTask: Task<Void, Never>?
        /// The streamed body being sent, if any: told when the output drains.
        var bodyWriter: StreamedBodyWriter?

        /// The parser's next step while the connection takes requests.
        enum RequestEvent {
            /// The connection takes no requests now (one is in flight, or it is closing).
            case stop
            case needBytes
            /// The request is malformed; `respond` when the state machine wants it answered.
            case failed(HTTPParseError, respond: Bool)
            case head(HTTPRequest)
            case complete(HTTPRequest)
        }

        mutating func nextRequestEvent() -> RequestEvent {
            guard machine.acceptsRequests else { return .stop }
            do {
                switch try parser.next() {
                case nil: return .needBytes
                case .head(let request): return .head(request)
                case .complete(let request): return .complete(request)
                }
            } catch {
                return .failed(error, respond: machine.parseFailed())
            }
        }

        /// What to do while waiting for the next request; nil when the connection takes none.
        mutating func awaitingRequest() -> HTTPConnectionStateMachine.AwaitAction? {
            guard machine.acceptsRequests else { return nil }
            return machine.awaitingRequest(partialRequest: parser.hasPartialRequest)
        }

        /// The async handler returned: whether reading resumes.
        mutating func handlerReturned() -> Bool {
            handlerTask = nil
            return machine.handlerReturned()
        }

        mutating func compress(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
            if compressor == nil { compressor = ResponseCompressor() }
            return compressor!.compress(response, for: request)
        }

        mutating func streamingStarted(_ writer: StreamedBodyWriter) {
            machine.streamingStarted()
            bodyWriter = writer
        }

        /// The connection closed: the task and body writer to let go of; nil if that was known.
        mutating func connectionClosed() -> (Task<Void, Never>?, StreamedBodyWriter?)? {
            guard machine.connectionClosed() else { return nil }
            defer {
                handlerTask = nil
                bodyWriter = nil
            }
            return (handlerTask, bodyWriter)
        }

        /// The peer hung up: the task to cancel, if the state machine says so.
        mutating func peerHungUp() -> Task<Void, Never>? {
            machine.peerHungUp() ? handlerTask : nil
        }
    }
}

import Dispatch
import Foundation
import Metrics

/// HTTP/1.1 on one connection: parses requests, answers them strictly in order (pipelining),
/// enforces the read and idle timeouts, answers `Expect: 100-continue`, and hands the
/// connection over to a `WebSocketConnectionHandler` on an accepted upgrade.
///
/// Confined to the connection's loop (its state is a `LoopBound`, checked in debug builds). One request is in flight at a time; while an async
/// handler runs, reading pauses, so pipelined requests wait in the kernel, not in memory.
/// What happens in which state is decided by its `HTTPConnectionStateMachine`; this type
/// performs it (parser, socket, application).
final class HTTPConnectionHandler: ConnectionHandler, Sendable {
    private let server: ServerContext
    /// Parser, serializer, state machine, the request in flight: only on the loop.
    private let state: LoopBound<State>

    /// Created on `loop`, the connection's.
    init(server: ServerContext, loop: EventLoop) {
        self.server = server
        state = LoopBound(State(parser: HTTPRequestParser(limits: server.configuration.parserLimits)), loop: loop)
    }

    func start(_ connection: Connection) {
        arm(state.value.machine.initialTimer, on: connection)
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        state.value.parser.append(bytes)
        processRequests(connection)
    }

    func connectionDeadlinePassed(_ connection: Connection) {
        switch state.value.machine.timerFired() {
        case .none:
            break
        case .close:
            connection.close()
        case .respondRequestTimeout(let timer):
            respondAndClose(connection, status: .requestTimeout, message: "request not received in time", timer: timer)
        }
    }

    func connectionDidReachEndOfInput(_ connection: Connection) {
        // A half-closed client may still read the answer to a request in flight, and the rest
        // of an answer already written.
        switch state.value.machine.endOfInput() {
        case .none: break
        case .pauseReading: connection.pauseReading()
        case .closeAfterFlush(let timer): closeAfterFlush(connection, timer: timer)
        }
    }

    func connectionDidClose(_ connection: Connection) {
        // The client is gone (reset, or hung up while its request ran): nobody will read the
        // answer, so the handler is told to stop (e.g. an upstream lookup is cancelled), and a
        // paced body producer is released.
        guard let (task, writer) = state.value.connectionClosed() else { return }
        task?.cancel()
        writer?.connectionDrainedOrClosed()
    }

    func connectionPeerDidHangUp(_ connection: Connection) {
        // The client half-closed or left while its request ran. Like Go's request context, the
        // handler is told to stop (an upstream lookup is cancelled); what it still answers is
        // sent, for a half-closed client that waits for it.
        if let task = state.value.peerHungUp() { task.cancel() }
    }

    func connectionDidDrainOutput(_ connection: Connection) {
        switch state.value.machine.outputDrained() {
        case .none:
            return
        case .cancelTimerAndNotifyBodyWriter:
            connection.deadline = nil  // the client is reading again
        case .notifyBodyWriter:
            break
        }
        let writer = state.value.bodyWriter
        writer?.connectionDrainedOrClosed()
    }

    /// Graceful shutdown: closes the connection if it is between requests, once the last
    /// response has gone out; a request in flight is answered (`Connection: close`) first.
    func connectionShouldQuiesce(_ connection: Connection) {
        if state.value.machine.closeIfIdle() { connection.closeAfterFlush() }
    }

    private func processRequests(_ connection: Connection) {
        requests: while !connection.isClosed {
            switch state.value.nextRequestEvent() {
            case .stop:
                return
            case .needBytes:
                break requests
            case .failed(let error, let respond):
                if respond { respondAndClose(connection, status: error.status, message: "\(error)", timer: .idle) }
                return
            case .head(let request):
                if request.expectsContinue {
                    connection.write(Self.continueResponse)
                }
            case .complete(let request):
                dispatch(request, on: connection)
            }
        }
        guard !connection.isClosed, let action = state.value.awaitingRequest() else { return }
        switch action {
        case .none: break
        case .armTimer(let timer): arm(timer, on: connection)
        case .closeAfterFlush(let timer): closeAfterFlush(connection, timer: timer)
        }
    }

    private func dispatch(_ request: consuming HTTPRequest, on connection: Connection) {
        guard state.value.machine.requestReceived() else { return }
        request.peer = connection.remote
        connection.deadline = nil
        if let route = server.webSocketRoute(for: request) {
            upgradeRequested(request, route: route, on: connection)
            return
        }
        // http_request_duration_seconds{route}: from the request dispatched to its response ready
        // to be written (as Hummingbird's metrics middleware times its handlers).
        let started = DispatchTime.now().uptimeNanoseconds
        let (resolution, duration) = server.router.resolveRoute(consume request)
        switch resolution {
        case .immediate(let handler, let request):
            let response = handler(request)
            duration.recordNanoseconds(Self.nanoseconds(since: started))
            finish(request, with: response, on: connection)
        case .fixed(let response, let request):
            duration.recordNanoseconds(Self.nanoseconds(since: started))
            guard response.fits(request, compress: server.configuration.compression), !server.isDraining else {
                finish(request, with: response.response, on: connection)
                return
            }
            var out: [UInt8] = []
            state.value.serializer.serialize(response, into: &out)
            connection.write(out)
            requestDone(keepAlive: true, on: connection)
        case .deferred(let handler, let request):
            connection.pauseReading()
            let loop = connection.loop
            state.value.handlerTask = Task {
                let response = await handler(request)
                loop.execute { [self] in
                    duration.recordNanoseconds(Self.nanoseconds(since: started))
                    if state.value.handlerReturned() { connection.resumeReading() }
                    finish(request, with: response, on: connection)
                }
            }
        }
    }

    private static func nanoseconds(since start: UInt64) -> Int64 {
        Int64(clamping: DispatchTime.now().uptimeNanoseconds &- start)
    }

    private func finish(_ request: HTTPRequest, with response: HTTPResponse, on connection: Connection) {
        guard !connection.isClosed else { return }
        let keepAlive = request.keepAlive && !server.isDraining
        var response = response
        if server.configuration.compression, case .bytes = response.body {
            response = state.value.compress(response, for: request)
        }
        var context = HTTPResponseSerializer.Context(request: request)
        context.closeConnection = context.closeConnection || !keepAlive
        var out: [UInt8] = []
        let framing = state.value.serializer.serialize(response, context: context, into: &out)
        connection.write(out)
        switch framing {
        case .complete:
            requestDone(keepAlive: !context.closeConnection, on: connection)
        case .chunked, .untilClose:
            guard case .stream(let produce) = response.body else { return }
            let writer = StreamedBodyWriter(connection: connection, chunked: framing == .chunked) { [self] in
                state.value.bodyWriter = nil
                requestDone(keepAlive: framing == .chunked && !context.closeConnection, on: connection)
            } onStall: { [self] in
                // The producer waits for the client (or gave up): a client that stops reading
                // is cut off after the idle timeout instead of holding the producer forever.
                if let timer = state.value.machine.bodyStalled() { arm(timer, on: connection) }
            }
            state.value.streamingStarted(writer)
            produce(writer)
        }
    }

    private func requestDone(keepAlive: Bool, on connection: Connection) {
        switch state.value.machine.responseComplete(keepAlive: keepAlive) {
        case .none:
            break
        case .closeAfterFlush(let timer):
            closeAfterFlush(connection, timer: timer)
        case .readNextRequest(let timer):
            arm(timer, on: connection)
            processRequests(connection)
        }
    }

    /// Closes once everything written has gone out, bounded by `timer`.
    private func closeAfterFlush(_ connection: Connection, timer: HTTPConnectionStateMachine.Timer) {
        arm(timer, on: connection)
        connection.closeAfterFlush()
    }

    /// Sets the connection's deadline to the configured length of `timer`.
    private func arm(_ timer: HTTPConnectionStateMachine.Timer, on connection: Connection) {
        let duration = switch timer {
        case .idle: server.configuration.idleTimeout
        case .requestRead: server.configuration.requestReadTimeout
        }
        connection.deadline = Deadline.after(duration)
    }

    /// A valid route's upgrade request: the handshake checked, then the application's decision.
    private func upgradeRequested(_ request: HTTPRequest, route: WebSocketRoute, on connection: Connection) {
        let accepted: WebSocketHandshake.Accepted
        do {
            accepted = try route.handshake.accept(request)
        } catch {
            // The body is the application's error response (JSON in the service), like every
            // other refusal the server makes itself.
            var response = server.errorResponse(error.status, error.reason)
            for (name, value) in error.headers { response.headers.set(name, value) }
            finish(request, with: response, on: connection)
            return
        }
        guard !server.isDraining else {
            finish(request, with: server.errorResponse(.serviceUnavailable, "shutting down"), on: connection)
            return
        }
        decide(route.admit?(request) ?? .accept(onClose: nil), request, accepted, route: route, on: connection)
    }

    /// Carries out the application's decision on an upgrade; a pending one is awaited with
    /// reading paused, then carried out on the connection's loop.
    private func decide(
        _ decision: UpgradeDecision, _ request: HTTPRequest, _ accepted: WebSocketHandshake.Accepted,
        route: WebSocketRoute, on connection: Connection
    ) {
        switch decision {
        case .refuse(let response):
            finish(request, with: response, on: connection)
        case .accept(let onClose):
            upgrade(request, accepted, route: route, onClose: onClose, on: connection)
        case .pending(let decide):
            connection.pauseReading()
            let loop = connection.loop
            state.value.handlerTask = Task {
                let decision = await decide()
                loop.execute { [self] in
                    guard !connection.isClosed else {
                        state.value.handlerTask = nil
                        if case .accept(let onClose) = decision { onClose?() }
                        return
                    }
                    if state.value.handlerReturned() { connection.resumeReading() }
                    // Shutdown began while the application decided: no new session now.
                    if server.isDraining, case .accept(let onClose) = decision {
                        onClose?()
                        finish(request, with: server.errorResponse(.serviceUnavailable, "shutting down"), on: connection)
                        return
                    }
                    self.decide(decision, request, accepted, route: route, on: connection)
                }
            }
        }
    }

    private func upgrade(
        _ request: HTTPRequest, _ accepted: WebSocketHandshake.Accepted, route: WebSocketRoute,
        onClose: (@Sendable () -> Void)?, on connection: Connection
    ) {
        var out: [UInt8] = []
        state.value.serializer.serialize(accepted.response, context: .init(request: request), into: &out)
        connection.write(out)
        // A failed write closed the connection: no session starts (its handler would never be
        // told of a close, and the session would hold it for good).
        guard !connection.isClosed else { return }
        let deflate = accepted.deflate.flatMap {
            PerMessageDeflate(parameters: $0, configuration: route.handshake.deflate ?? PerMessageDeflateConfiguration())
        }
        let leftover = state.value.parser.takeUnparsedBytes()
        let handler = WebSocketConnectionHandler(
            connection: connection, request: request, configuration: server.configuration.webSocket,
            deflate: deflate, events: server.events, onClose: onClose
        )
        connection.handler = handler
        state.value.machine.upgraded()
        handler.start()
        route.onSession(handler.session)
        if !leftover.isEmpty {
            leftover.withUnsafeBytes { handler.connection(connection, didRead: $0) }
        }
    }

    private func respondAndClose(
        _ connection: Connection, status: HTTPStatus, message: String, timer: HTTPConnectionStateMachine.Timer
    ) {
        let response = server.errorResponse(status, message)
        var out: [UInt8] = []
        state.value.serializer.serialize(response, context: .init(closeConnection: true), into: &out)
        connection.write(out)
        closeAfterFlush(connection, timer: timer)
    }

    private static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}

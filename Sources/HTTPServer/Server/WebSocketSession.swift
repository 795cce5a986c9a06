import StreamCore

/// One accepted WebSocket connection, as StreamCore sees it: `messages` publishes what the
/// client sends, `outbound` takes what to send back. Usable from any thread; every call hops to
/// the connection's loop.
///
/// Back pressure runs end to end: the socket is read only while `messages` has demand (beyond
/// a small queue, see `WebSocketConfiguration.inboundQueueMessages`), and `outbound` asks its
/// publisher for more only while the socket keeps up (`outboundWindow`,
/// `outboundHighWaterBytes`), so a slow reader never makes the server buffer without bound.
public final class WebSocketSession: @unchecked Sendable {
    // Sendable: `request` and `loop` are immutable; `handler` is only dereferenced on `loop`.

    /// An application message.
    public enum Message: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
    }

    /// The upgrade request (path, headers, query).
    public let request: HTTPRequest
    let loop: EventLoop
    weak var handler: WebSocketConnectionHandler?

    /// `handler` is set by the handler that creates the session.
    init(request: HTTPRequest, loop: EventLoop) {
        self.request = request
        self.loop = loop
    }

    /// Timers on the connection's own event loop: a pipeline that throttles or debounces on it
    /// produces its results on the thread that writes this socket.
    public var scheduler: EventLoopScheduler { loop.scheduler }

    /// The client's messages, for one subscriber; finishes when the connection closes, once the
    /// messages received before have been delivered.
    public var messages: Messages { Messages(session: self) }

    /// A new subscriber that sends every message it receives; its demand follows the socket.
    /// Its completion closes the session normally.
    public var outbound: AnySubscriber<Message, Never> { AnySubscriber(OutboundSubscriber(session: self)) }

    /// Sends one message outside back pressure (e.g. a greeting). A client that lets more than
    /// `outboundLimitBytes` pile up is disconnected with 1008.
    ///
    /// `send` and `close` take effect in the order they are called, from whatever threads: they
    /// are always queued on the loop, never run inline — a call made on the loop would otherwise
    /// overtake calls other threads queued just before it (seen under load as a lookup's
    /// `activity:false`, sent on the loop, arriving before its `activity:true`).
    public func send(_ message: Message) {
        loop.enqueue { [self] in handler?.send(message, enforceLimit: true) }
    }

    /// Runs `body` on the connection's loop once every message sent before this call has been
    /// handed to the socket (written, or buffered while the socket is full).
    public func afterPendingSends(_ body: @escaping @Sendable () -> Void) {
        loop.enqueue(body)
    }

    /// Starts the closing handshake; the connection closes when the client answers or after
    /// `closeTimeout`. Ordered with `send(_:)`.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        loop.enqueue { [self] in handler?.close(code: code, reason: reason) }
    }

    /// The publisher of the client's messages.
    public struct Messages: Publisher {
        public typealias Output = Message
        public typealias Failure = Never

        let session: WebSocketSession

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Message, S.Failure == Never {
            // The subscriber is only used on the loop, where this closure runs.
            nonisolated(unsafe) let subscriber = AnySubscriber(subscriber)
            session.loop.execute { [session] in
                guard let handler = session.handler else {
                    subscriber.receive(subscription: Subscriptions.empty)
                    subscriber.receive(completion: .finished)
                    return
                }
                handler.attachInbound(subscriber, session: session)
            }
        }
    }
}

/// The subscription of `WebSocketSession.messages`, and the way to its subscriber. It keeps
/// the connection's handler alive until the messages received before the connection closed
/// have been delivered.
final class InboundSubscription: Subscription, @unchecked Sendable {
    // Sendable: `loop` is immutable; `handler` and `subscriber` are only used on the loop.
    private let loop: EventLoop
    private var handler: WebSocketConnectionHandler?
    let subscriber: AnySubscriber<WebSocketSession.Message, Never>

    init(session: WebSocketSession, handler: WebSocketConnectionHandler, subscriber: AnySubscriber<WebSocketSession.Message, Never>) {
        loop = session.loop
        self.handler = handler
        self.subscriber = subscriber
    }

    func request(_ demand: Subscribers.Demand) {
        loop.execute { [self] in handler?.inboundRequested(demand) }
    }

    func cancel() {
        loop.execute { [self] in handler?.inboundCancelled() }
    }

    /// The publisher has completed or been cancelled: let go of the handler (on the loop).
    func release() { handler = nil }
}

/// One publisher feeding a session: asks for `outboundWindow` messages, then one more for each
/// message the socket has taken while unwritten bytes stay under the high-water mark.
final class OutboundSubscriber: Subscriber, @unchecked Sendable {
    // Sendable: `subscription`, `owed` and `done` are only touched on the session's loop.
    typealias Input = WebSocketSession.Message
    typealias Failure = Never

    private let session: WebSocketSession
    private var subscription: Subscription?
    private var owed = 0
    private var done = false

    init(session: WebSocketSession) { self.session = session }

    func receive(subscription: Subscription) {
        nonisolated(unsafe) let subscription = subscription
        session.loop.execute { [self] in
            guard self.subscription == nil, !done, let handler = session.handler else {
                subscription.cancel()
                return
            }
            self.subscription = subscription
            handler.register(self)
            subscription.request(.max(handler.configuration.outboundWindow))
        }
    }

    func receive(_ input: WebSocketSession.Message) -> Subscribers.Demand {
        session.loop.execute { [self] in
            guard !done, let handler = session.handler else { return }
            handler.send(input, enforceLimit: false)
            if handler.hasRoomForOutput { subscription?.request(.max(1)) } else { owed += 1 }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        session.loop.execute { [self] in
            guard !done else { return }
            done = true
            subscription = nil
            session.handler?.unregister(self)
            session.handler?.close(code: .normalClosure, reason: "")
        }
    }

    /// The socket drained: ask for what was held back (on the loop).
    func drained() {
        guard owed > 0, !done else { return }
        let demand = owed
        owed = 0
        subscription?.request(.max(demand))
    }

    /// The session closed: stop the publisher (on the loop).
    func sessionClosed() {
        guard !done else { return }
        done = true
        let subscription = self.subscription
        self.subscription = nil
        subscription?.cancel()
    }
}

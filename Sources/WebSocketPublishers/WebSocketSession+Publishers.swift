import HTTPServer
import StreamCore

/// StreamCore on a `WebSocketSession`: its messages as a publisher, a subscriber that sends,
/// and its connection's loop as a scheduler. Built on HTTPServer's plain API (`read(with:)`,
/// `write`, `addOutputObserver`), so HTTPServer itself needs no Combine library.
extension WebSocketSession {
    /// The client's messages, for one subscriber; finishes when the connection closes, once the
    /// messages received before have been delivered. The socket is read only while the
    /// subscriber has demand (beyond a small queue).
    public var messages: Messages { Messages(session: self) }

    /// A new subscriber that sends every message it receives; its demand follows the socket
    /// (`outboundWindow` at first, then one more for each message the socket takes while
    /// unwritten bytes stay under the high-water mark). Its completion closes the session
    /// normally.
    public var outbound: AnySubscriber<Message, Never> { AnySubscriber(OutboundSubscriber(session: self)) }

    /// Timers on the connection's own event loop: a pipeline that throttles or debounces on it
    /// produces its results on the thread that writes this socket.
    public var scheduler: EventLoopScheduler { loop.scheduler }

    /// The publisher of the client's messages.
    public struct Messages: Publisher {
        public typealias Output = Message
        public typealias Failure = Never

        let session: WebSocketSession

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Message, S.Failure == Never {
            session.read(with: MessagesSubscription(subscriber))
        }
    }
}

/// The subscription of `WebSocketSession.messages`: reads the session for its subscriber,
/// whose calls all come on the session's loop. Generic over the subscriber, which it holds
/// as it is (an `AnySubscriber` would add a box and three closures to every session).
private final class MessagesSubscription<Downstream: Subscriber>: WebSocketMessageReader, Subscription
where Downstream.Input == WebSocketSession.Message, Downstream.Failure == Never {
    private let subscriber: Downstream
    /// Set on the loop before the subscriber can call `request` or `cancel`, never changed.
    private var reading: WebSocketReading?

    init(_ subscriber: Downstream) { self.subscriber = subscriber }

    func readingStarted(_ reading: WebSocketReading) {
        self.reading = reading
        subscriber.receive(subscription: self)
    }

    func read(_ message: WebSocketSession.Message) -> WebSocketDemand {
        WebSocketDemand(subscriber.receive(message))
    }

    func readingEnded() { subscriber.receive(completion: .finished) }

    func request(_ demand: Subscribers.Demand) { reading?.request(WebSocketDemand(demand)) }

    func cancel() { reading?.cancel() }
}

extension WebSocketDemand {
    /// Combine's demand as HTTPServer's.
    init(_ demand: Subscribers.Demand) {
        self = demand.max.map { .max($0) } ?? .unlimited
    }
}

import HTTPServer
import StreamCore

/// One publisher feeding a session (`WebSocketSession.outbound`): asks for `outboundWindow`
/// messages, then one more for each message the socket has taken while unwritten bytes stay
/// under the high-water mark. Its completion closes the session normally; the session closing
/// cancels its publisher.
final class OutboundSubscriber: Subscriber, WebSocketOutputObserver, @unchecked Sendable {
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
            guard self.subscription == nil, !done else {
                subscription.cancel()
                return
            }
            self.subscription = subscription
            session.addOutputObserver(self)
            guard !done else { return subscription.cancel() }
            subscription.request(.max(session.outboundWindow))
        }
    }

    func receive(_ input: WebSocketSession.Message) -> Subscribers.Demand {
        session.loop.execute { [self] in
            guard !done else { return }
            if session.write(input) { subscription?.request(.max(1)) } else { owed += 1 }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        session.loop.execute { [self] in
            guard !done else { return }
            done = true
            subscription = nil
            session.removeOutputObserver(self)
            session.close()
        }
    }

    /// The socket drained: ask for what was held back (on the loop).
    func outputDrained() {
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

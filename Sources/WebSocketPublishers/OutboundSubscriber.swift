import HTTPServer
import StreamCore

/// One publisher feeding a session (`WebSocketSession.outbound`): asks for `outboundWindow`
/// messages, then one more for each message the socket has taken while unwritten bytes stay
/// under the high-water mark. Its completion closes the session normally; the session closing
/// cancels its publisher. Every call is queued for the loop, never run inline even there, so
/// calls from the loop and from other threads keep the order in which they were made.
final class OutboundSubscriber: Subscriber, WebSocketOutputObserver, Sendable {
    typealias Input = WebSocketSession.Message
    typealias Failure = Never

    private let session: WebSocketSession
    /// The subscription, the demand held back, whether it ended: only on the session's loop.
    private let state: LoopBound<State>

    private struct State {
        var subscription: Subscription?
        /// Messages written while the socket was full: asked for again once it drains.
        var owed = 0
        var done = false

        /// Takes `subscription` unless there is one or the subscriber ended.
        mutating func attach(_ subscription: Subscription) -> Bool {
            guard self.subscription == nil, !done else { return false }
            self.subscription = subscription
            return true
        }

        /// Ends the subscriber: whether it was running, and the subscription it let go of.
        mutating func end() -> (ended: Bool, subscription: Subscription?) {
            guard !done else { return (false, nil) }
            done = true
            defer { subscription = nil }
            return (true, subscription)
        }

        /// The demand held back and the subscription to ask; none once the subscriber ended.
        mutating func takeOwed() -> (Int, Subscription?) {
            guard owed > 0, !done else { return (0, nil) }
            defer { owed = 0 }
            return (owed, subscription)
        }
    }

    /// Created on any thread, before the session's loop sees it.
    init(session: WebSocketSession) {
        self.session = session
        state = LoopBound(sending: State(), loop: session.loop)
    }

    func receive(subscription: Subscription) {
        // Handed to the loop, the only place it is used (StreamCore's `Subscription` is not
        // `Sendable`, as Combine's is not).
        nonisolated(unsafe) let subscription = subscription
        session.loop.enqueue { [self] in
            guard state.value.attach(subscription) else {
                subscription.cancel()
                return
            }
            session.addOutputObserver(self)
            guard !state.value.done else { return subscription.cancel() }
            subscription.request(.max(session.outboundWindow))
        }
    }

    func receive(_ input: WebSocketSession.Message) -> Subscribers.Demand {
        session.loop.enqueue { [self] in
            guard !state.value.done else { return }
            if session.write(input) {
                let subscription = state.value.subscription
                subscription?.request(.max(1))
            } else {
                state.value.owed += 1
            }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        session.loop.enqueue { [self] in
            guard state.value.end().ended else { return }
            session.removeOutputObserver(self)
            session.close()
        }
    }

    /// The socket drained: ask for what was held back (on the loop).
    func outputDrained() {
        let (demand, subscription) = state.value.takeOwed()
        guard demand > 0 else { return }
        subscription?.request(.max(demand))
    }

    /// The session closed: stop the publisher (on the loop).
    func sessionClosed() {
        let (ended, subscription) = state.value.end()
        if ended { subscription?.cancel() }
    }
}


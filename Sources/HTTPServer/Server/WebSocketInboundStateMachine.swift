/// The flow of received WebSocket messages to the application's one subscriber, as a value:
/// messages queue (up to a limit, beyond which reading pauses) until the subscriber attaches
/// and asks for them; the publisher completes once input has ended and the queue is delivered.
/// Pure: the owner asks `nextStep` what to do (deliver, decode one more message from its
/// reader, complete) and reports back; it pauses reading while `isFull`.
///
/// `Receiver` is whatever the owner delivers to (a subscriber; tests use plain values).
struct WebSocketInboundStateMachine<Receiver> {
    /// Received messages not yet delivered.
    struct Queue {
        private var messages: [WebSocketSession.Message] = []
        private var head = 0

        var count: Int { messages.count - head }
        var isEmpty: Bool { head == messages.count }

        mutating func append(_ message: WebSocketSession.Message) { messages.append(message) }

        mutating func removeFirst() -> WebSocketSession.Message {
            let message = messages[head]
            head += 1
            if head == messages.count {
                messages.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 64 {
                messages.removeFirst(head)
                head = 0
            }
            return message
        }

        /// Payload bytes of the queued messages.
        var payloadBytes: Int {
            messages[head...].reduce(0) { sum, message in
                switch message {
                case .text(let text): sum + text.utf8.count
                case .binary(let bytes): sum + bytes.count
                }
            }
        }
    }

    enum State {
        /// No subscriber yet: messages wait.
        case unattached(Queue)
        /// The subscriber and what it has asked for.
        case attached(Receiver, WebSocketDemand, Queue)
        /// A message is being handed to the subscriber (which may ask for more, cancel, or
        /// close the session meanwhile).
        case delivering(Receiver, WebSocketDemand, Queue)
        /// The subscriber cancelled: messages are dropped, the connection stays.
        case abandoned
        /// The publisher has completed.
        case finished
    }

    /// Whether the reader may hold complete messages no socket read will announce.
    enum Reader: Sendable, Equatable {
        case mayHoldMessages
        case needsBytes
    }

    /// How far the input goes, from the protocol's state.
    enum Input: Sendable, Equatable {
        /// Messages may still arrive.
        case open
        /// No more messages will be queued (a close frame was sent or received, or the
        /// protocol failed); the connection is still there.
        case ended
        /// The connection is closed: a queue nobody subscribed to is dropped.
        case closed
    }

    /// Messages kept while there is no demand; reading pauses at this many.
    let limit: Int
    private(set) var state: State = .unattached(Queue())
    private(set) var reader: Reader = .needsBytes

    init(limit: Int) {
        self.limit = limit
    }

    private var queue: Queue? {
        switch state {
        case .unattached(let queue), .attached(_, _, let queue), .delivering(_, _, let queue): queue
        case .abandoned, .finished: nil
        }
    }

    /// Messages waiting for the subscriber.
    var queuedCount: Int { queue?.count ?? 0 }

    /// Payload bytes waiting for the subscriber.
    var queuedBytes: Int { queue?.payloadBytes ?? 0 }

    /// Whether the queue is at its limit: reading pauses until delivery makes room.
    var isFull: Bool { queuedCount >= limit }

    // MARK: The reader

    /// Bytes went to the reader.
    mutating func bytesArrived() { reader = .mayHoldMessages }

    /// The reader needs more bytes for its next message.
    mutating func readerNeedsBytes() { reader = .needsBytes }

    /// A data message was decoded; `input` says whether the protocol still delivers it.
    mutating func received(_ message: WebSocketSession.Message, input: Input) {
        guard input == .open else { return }
        switch state {
        case .unattached(var queue):
            // `state` briefly holds a payload-free case so that `queue` is uniquely
            // referenced and grows in place (here and below).
            state = .finished
            queue.append(message)
            state = .unattached(queue)
        case .attached(let receiver, let demand, var queue):
            state = .finished
            queue.append(message)
            state = .attached(receiver, demand, queue)
        case .delivering(let receiver, let demand, var queue):
            state = .finished
            queue.append(message)
            state = .delivering(receiver, demand, queue)
        case .abandoned, .finished:
            break  // nobody will read it: dropped, the connection lives on
        }
    }

    // MARK: The subscriber

    /// What to do with a new subscriber.
    enum AttachAction {
        /// Give it its subscription.
        case subscribe
        /// Another subscriber came first, or the publisher is done: finish it at once.
        case reject
    }

    mutating func attach(_ receiver: Receiver) -> AttachAction {
        guard case .unattached(let queue) = state else { return .reject }
        state = .attached(receiver, .none, queue)
        return .subscribe
    }

    /// The subscriber asked for more.
    mutating func requested(_ demand: WebSocketDemand) {
        switch state {
        case .attached(let receiver, let current, let queue):
            state = .finished
            state = .attached(receiver, current + demand, queue)
        case .delivering(let receiver, let current, let queue):
            state = .finished
            state = .delivering(receiver, current + demand, queue)
        case .unattached, .abandoned, .finished:
            break
        }
    }

    /// The subscriber cancelled. Returns it, to be let go of (nil if it already was).
    mutating func cancelled() -> Receiver? {
        switch state {
        case .attached(let receiver, _, _), .delivering(let receiver, _, _):
            state = .abandoned
            return receiver
        case .unattached, .abandoned, .finished:
            return nil
        }
    }

    /// The subscriber took a message and asked for `demand` more.
    mutating func delivered(demand: WebSocketDemand) {
        guard case .delivering(let receiver, let current, let queue) = state else { return }
        state = .finished
        state = .attached(receiver, current + demand, queue)
    }

    // MARK: Driving

    enum Step {
        /// Hand the message to the receiver, then report `delivered(demand:)`.
        case deliver(Receiver, WebSocketSession.Message)
        /// Decode the reader's next message (then `received`, or `readerNeedsBytes`).
        case decode
        /// Complete the publisher (and tell the receiver, if there is one).
        case complete(Receiver?)
        /// Nothing to do until the next event.
        case idle
    }

    /// The next thing to do. `readsFrames` says whether the protocol still reads frames.
    mutating func nextStep(input: Input, readsFrames: Bool) -> Step {
        switch state {
        case .attached(let receiver, let demand, var queue) where demand.wantsMore && !queue.isEmpty:
            state = .finished
            let message = queue.removeFirst()
            state = .delivering(receiver, demand.afterOne(), queue)
            return .deliver(receiver, message)
        case .delivering:
            // Called back from inside a delivery: the delivering call goes on when it returns.
            return .idle
        default:
            break
        }
        if readsFrames && reader == .mayHoldMessages && !isFull {
            return .decode
        }
        guard input != .open else { return .idle }
        switch state {
        case .unattached(let queue) where queue.isEmpty || input == .closed:
            state = .finished
            return .complete(nil)
        case .attached(let receiver, _, let queue) where queue.isEmpty:
            state = .finished
            return .complete(receiver)
        case .abandoned:
            state = .finished
            return .complete(nil)
        default:
            return .idle
        }
    }
}


import HTTPServer
import PipelineWire
import StreamCore
import Synchronization

/// One subscription to a remote pipeline: the subscriber's `request(_:)` and `cancel()` go on
/// the wire as `request` and `cancel` frames for its id, the server's frames for the id come
/// back as values and a completion. The first demand travels in the `subscribe` frame, which
/// is sent only once there is some; the input publisher is subscribed then too, synchronously
/// in that first `request(_:)` (as a local pipeline would be), each value becoming a `send`
/// frame queued after the `subscribe`.
///
/// Everything but the two flags is confined to the connection's loop: the subscriber's calls
/// hop there, and the subscriber is called from there, one call at a time.
final class RemoteSubscription: Subscription, MuxRoute, @unchecked Sendable {
    // Sendable: `cancelled` is atomic; every other mutable field is only touched on `loop`.
    typealias Downstream = AnySubscriber<RemoteEvent, RemotePipelineError>
    /// Subscribes the input publisher (mapped to messages) to a forwarder.
    typealias InputStarter = (RemoteSubscription) -> Void

    private enum State {
        /// No demand yet: nothing sent.
        case awaitingDemand(Downstream)
        /// `subscribe` is out; `remaining` is the demand the server has not yet used.
        case live(Downstream, remaining: Subscribers.Demand)
        /// Completed, failed or cancelled.
        case ended
    }

    let id: String
    private let pipeline: MuxPipelineName
    private let connection: RemotePipelineConnection
    private let loop: EventLoop
    private let input: InputStarter
    /// Set by the first `request(_:)`, which subscribes the input.
    private let inputStarted = Atomic<Bool>(false)
    private var state: State
    private var inputSubscription: Subscription?
    /// Set at once by `cancel()`, so that nothing is delivered after it even before the loop
    /// gets to the cancel.
    private let cancelled = Atomic<Bool>(false)

    init(connection: RemotePipelineConnection, loop: EventLoop, pipeline: MuxPipelineName, input: @escaping InputStarter, downstream: Downstream) {
        id = connection.makeID()
        self.connection = connection
        self.loop = loop
        self.pipeline = pipeline
        self.input = input
        state = .awaitingDemand(downstream)
    }

    /// Starts routing the id's frames here (on the loop, before any request).
    func attach() {
        loop.enqueue { [self] in connection.attach(id, self) }
    }

    // MARK: Subscription (any thread)

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        loop.enqueue { [self] in requested(demand) }
        if !inputStarted.exchange(true, ordering: .acquiringAndReleasing), !cancelled.load(ordering: .acquiring) {
            input(self)
        }
    }

    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        loop.enqueue { [self] in
            if case .live = state { connection.send(.cancel(id: id)) }
            end()
        }
    }

    // MARK: On the loop

    private func requested(_ demand: Subscribers.Demand) {
        switch state {
        case .awaitingDemand(let downstream):
            state = .live(downstream, remaining: demand)
            connection.send(.subscribe(id: id, pipeline: pipeline, demand: MuxDemand(demand), trace: false))
        case .live(let downstream, let remaining):
            state = .live(downstream, remaining: remaining + demand)
            connection.send(.request(id: id, demand: MuxDemand(demand)))
        case .ended:
            return
        }
    }

    func receive(_ frame: MuxServerFrame, event: RemoteEvent?) {
        guard case .live(let downstream, let remaining) = state else { return }
        switch frame {
        case .subscribed, .trace:
            return
        case .event:
            guard let event else { return }
            guard remaining > .none else {
                connection.send(.cancel(id: id))
                finish(.failure(.invalidFrame("an event beyond the demand requested")))
                return
            }
            state = .live(downstream, remaining: remaining - 1)
            guard !cancelled.load(ordering: .acquiring) else { return }
            let more = downstream.receive(event)
            guard more > .none, case .live(let downstream, let remaining) = state else { return }
            state = .live(downstream, remaining: remaining + more)
            connection.send(.request(id: id, demand: MuxDemand(more)))
        case .completion(_, let failure):
            finish(failure.map { .failure(.failed(code: $0.code.rawValue, message: $0.message)) } ?? .finished)
        case .error(_, let code, let message, let stage):
            // A refused frame ends the subscription; the instance, if there is one, goes too.
            connection.send(.cancel(id: id))
            finish(.failure(code == .badPipeline ? .badPipeline(BadPipeline(stage: stage, message: message)) : .refused(code: code.rawValue, message: message)))
        }
    }

    func connectionEnded(_ error: RemotePipelineError) {
        finish(.failure(error))
    }

    /// Sends one input value (from the input forwarder, on the loop).
    func send(_ message: RemotePipelineMessage) {
        guard case .live = state, !cancelled.load(ordering: .acquiring) else { return }
        connection.send(.send(id: id, message: .object(json: message.json)))
    }

    /// The input publisher subscribed (on the loop); kept to cancel it at the end.
    func inputSubscribed(_ subscription: Subscription) {
        guard case .live = state else {
            subscription.cancel()
            return
        }
        inputSubscription = subscription
    }

    private func finish(_ completion: Subscribers.Completion<RemotePipelineError>) {
        let downstream: Downstream
        switch state {
        case .awaitingDemand(let current), .live(let current, _): downstream = current
        case .ended: return
        }
        end()
        if !cancelled.load(ordering: .acquiring) { downstream.receive(completion: completion) }
    }

    /// Lets go of the subscriber, the input and the route.
    private func end() {
        if case .ended = state { return }
        state = .ended
        let subscription = inputSubscription
        inputSubscription = nil
        subscription?.cancel()
        connection.detach(id)
    }
}

/// Subscribes to the input on behalf of a `RemoteSubscription`, hopping every call to its loop.
final class InputForwarder: Subscriber, @unchecked Sendable {
    // Sendable: immutable; the remote subscription is only used on its loop.
    typealias Input = RemotePipelineMessage
    typealias Failure = Never

    private let remote: RemoteSubscription
    private let loop: EventLoop

    init(_ remote: RemoteSubscription, loop: EventLoop) {
        self.remote = remote
        self.loop = loop
    }

    func receive(subscription: Subscription) {
        // Demand at once, as a local subscriber would: a subject drops values sent while its
        // subscriber has none, and typing may start right after subscribing.
        subscription.request(.unlimited)
        nonisolated(unsafe) let subscription = subscription
        loop.enqueue { [remote] in remote.inputSubscribed(subscription) }
    }

    func receive(_ message: RemotePipelineMessage) -> Subscribers.Demand {
        loop.enqueue { [remote] in remote.send(message) }
        return .none
    }

    /// The input ending does not end the remote pipeline (the endpoint has no such message):
    /// it runs until the server completes it or the subscriber cancels.
    func receive(completion: Subscribers.Completion<Never>) {}
}

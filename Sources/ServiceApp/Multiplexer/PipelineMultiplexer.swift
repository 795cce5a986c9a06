import HTTPServer
import WebSocketPublishers
import Locking
import PipelineWire
@_spi(ServerSupport) import StreamCore

/// One `/ws/pipelines` connection: carries out what its `MuxStateMachine` decides. The machine
/// is fed under a lock from whichever thread has something for it (a client frame, an
/// instance's event, fair use's answer); the actions it returns are queued in its order under
/// that lock and carried out outside it by an `OrderedHandoff`, one thread at a time. That
/// thread owns the running instances and the sessions fair use granted; an action that feeds
/// the machine again (an instance's `hello` as it starts) queues behind the current one.
///
/// Client frames are read one at a time: the next is requested when the machine says
/// `readNext` (at once, or when fair use has answered for a subscription). Frames go out through
/// `WebSocketSession.send`, so the connection's `webSocket.outboundLimitBytes` still closes a
/// client that never reads.
final class PipelineMultiplexer: @unchecked Sendable {
    // Sendable: `machine` is guarded by `lock`; `instances`, `grants` and `inbound` are touched
    // only by work delivered by `performer` (one thread at a time, in the order queued).
    private typealias Serial = MuxStateMachine.Serial

    private let lock = Lock()
    private let performer = OrderedHandoff<@Sendable () -> Void> { $0() }
    private let session: WebSocketSession
    private let context: PipelineDescriptor.Context
    private let quota: ClientQuota
    private let metrics: MuxMetrics
    private var machine: MuxStateMachine
    private var instances: [Serial: PipelineInstance] = [:]
    /// What gives back each session fair use granted, by the subscription it was granted for.
    private var grants: [Serial: @Sendable () -> Void] = [:]
    private var inbound: (any Subscription)?

    private init(session: WebSocketSession, context: PipelineDescriptor.Context, settings: MuxStateMachine.Settings, metrics: MuxMetrics) {
        self.session = session
        self.context = context
        quota = context.fairUse.quota(for: session.request)
        self.metrics = metrics
        machine = MuxStateMachine(settings: settings)
    }

    /// Serves `session` until it closes; closing it cancels every subscription.
    static func attach(
        _ session: WebSocketSession, context: PipelineDescriptor.Context, settings: MuxStateMachine.Settings, metrics: MuxMetrics
    ) {
        // The session holds the reader, which holds the multiplexer, until the socket closes.
        session.messages.subscribe(Reader(PipelineMultiplexer(session: session, context: context, settings: settings, metrics: metrics)))
    }

    // MARK: The machine

    /// Feeds the machine, then carries out its actions (or leaves them to the thread already
    /// carrying out earlier ones).
    private func handle(_ input: MuxStateMachine.Input) {
        lock.withLock {
            let (running, held) = (machine.running, machine.held)
            let actions = machine.handle(input)
            let changes = (running: machine.running - running, held: machine.held - held)
            performer.enqueue { [self] in
                record(running: changes.running, held: changes.held)
                for action in actions { perform(action) }
            }
        }
        performer.deliverQueued()
    }

    /// Runs `work` in its place among the actions (for the state only actions touch).
    private func inOrder(_ work: @escaping @Sendable () -> Void) {
        performer.enqueue(work)
        performer.deliverQueued()
    }

    private func perform(_ action: MuxStateMachine.Action) {
        switch action {
        case .send(let frame):
            if case .completion(_, let failure?) = frame, failure.code == .overflow { metrics.overflows.increment() }
            session.send(.text(frame.json))
        case .start(let serial, let pipeline, let trace):
            let output = PipelineInstance.Output(
                event: forward { .event(serial, $0) }, trace: trace ? forward { .trace(serial, $0) } : nil
            )
            switch pipeline {
            case .catalog(let name):
                guard let descriptor = PipelineDescriptor.named(name) else { return }
                instances[serial] = descriptor.start(context, quota, output)
            case .composed(let definition):
                instances[serial] = ComposedInstance.start(definition: definition, context: context, quota: quota, output: output)
            }
            metrics.started.increment()
        case .deliver(let serial, let message):
            instances[serial]?.receive(message)
        case .tearDown(let serial):
            instances.removeValue(forKey: serial)?.cancel()
        case .openSession(let serial):
            admit(serial, context.fairUse.admitSession(session.request))
        case .closeSession(let serial):
            grants.removeValue(forKey: serial)?()
        case .readNext:
            inbound?.request(.max(1))
        }
    }

    /// A sink for an instance's frames (from any thread) that feeds them to the machine; it does
    /// not keep the multiplexer alive.
    private func forward(_ input: @escaping @Sendable (String) -> MuxStateMachine.Input) -> @Sendable (String) -> Void {
        { [weak self] text in self?.handle(input(text)) }
    }

    /// Takes fair use's decision on one more session for `serial`.
    private func admit(_ serial: Serial, _ decision: UpgradeDecision) {
        switch decision {
        case .accept(let onClose):
            if let onClose { inOrder { [self] in grants[serial] = onClose } }
            handle(.admitted(serial, granted: true))
        case .refuse:
            handle(.admitted(serial, granted: false))
        case .pending(let decide):
            // Counted across replicas: the client's frames wait (reading is paused) meanwhile.
            Task { [self] in admit(serial, await decide()) }
        }
    }

    private func record(running: Int, held: Int) {
        for (meter, change) in [(metrics.subscriptions, running), (metrics.heldEvents, held)] where change != 0 {
            if change > 0 { meter.increment(by: Double(change)) } else { meter.decrement(by: Double(-change)) }
        }
    }

    // MARK: The socket

    /// The subscriber of the session's messages: one frame at a time, into the machine.
    private final class Reader: Subscriber, @unchecked Sendable {
        // Sendable: the multiplexer is thread-safe (its lock and its ordered performer).
        typealias Input = WebSocketSession.Message
        typealias Failure = Never

        private let mux: PipelineMultiplexer

        init(_ mux: PipelineMultiplexer) { self.mux = mux }

        func receive(subscription: any Subscription) {
            nonisolated(unsafe) let subscription = subscription
            mux.inOrder { [mux] in
                mux.inbound = subscription
                subscription.request(.max(1))
            }
        }

        func receive(_ input: WebSocketSession.Message) -> Subscribers.Demand {
            mux.handle(Self.read(input))
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {
            mux.inOrder { [mux] in mux.inbound = nil }
            mux.handle(.closed)
        }

        /// A client frame as the machine takes it: read in one pass by the wire codec.
        private static func read(_ message: WebSocketSession.Message) -> MuxStateMachine.Input {
            switch message {
            case .text(let text):
                do {
                    return .frame(try MuxClientFrame(decoding: text))
                } catch {
                    return .refused(error)
                }
            case .binary:
                return .refused(MuxFrameError(id: nil, code: .badMessage, message: "binary frames are not accepted; send JSON text"))
            }
        }
    }
}

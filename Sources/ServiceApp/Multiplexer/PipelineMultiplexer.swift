import Dispatch
import HTTPServer
import StreamCore

/// One `/ws/pipelines` connection: carries out what its `MuxStateMachine` decides. A serial
/// queue owns the machine, the running instances and the sessions fair use granted; client
/// frames, instance events and fair-use answers all reach the machine through it, so its
/// actions run in the order it returned them.
///
/// Client frames are read one at a time: the next is requested when the machine says
/// `readNext` (at once, or when fair use has answered for a subscription). Frames go out through
/// `WebSocketSession.send`, so the connection's `webSocket.outboundLimitBytes` still closes a
/// client that never reads.
final class PipelineMultiplexer: @unchecked Sendable {
    // Sendable: every var is only touched on `queue`.
    private typealias Serial = MuxStateMachine.Serial

    /// Targets the global queue, which runs at most one thread per core: a queue made with a
    /// label alone targets the overcommitting root queue, and a thousand busy connections then
    /// had up to 262 threads (libdispatch's cap) switching between them.
    private let queue = DispatchQueue(label: "mux", target: .global())
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

    // MARK: On the queue

    /// Feeds the machine and carries out its actions.
    private func handle(_ input: MuxStateMachine.Input) {
        let (running, held) = (machine.running, machine.held)
        let actions = machine.handle(input)
        record(running: machine.running - running, held: machine.held - held)
        for action in actions { perform(action) }
    }

    private func perform(_ action: MuxStateMachine.Action) {
        switch action {
        case .send(let frame):
            if case .failure(_, "overflow", _) = frame { metrics.overflows.increment() }
            session.send(.text(frame.json))
        case .start(let serial, let pipeline, let trace):
            guard let descriptor = PipelineDescriptor.named(pipeline) else { return }
            let output = PipelineInstance.Output(
                event: forward { .event(serial, $0) }, trace: trace ? forward { .trace(serial, $0) } : nil
            )
            metrics.started.increment()
            instances[serial] = descriptor.start(context, quota, output)
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

    /// A sink for an instance's frames (from any thread) that feeds them to the machine on the
    /// queue; it does not keep the multiplexer alive.
    private func forward(_ input: @escaping @Sendable (String) -> MuxStateMachine.Input) -> @Sendable (String) -> Void {
        { [weak self] text in
            guard let self else { return }
            queue.async { self.handle(input(text)) }
        }
    }

    /// Takes fair use's decision on one more session for `serial` (after a hop, so the machine
    /// is fed from the queue's top level).
    private func admit(_ serial: Serial, _ decision: UpgradeDecision) {
        switch decision {
        case .accept(let onClose):
            queue.async { [self] in
                if let onClose { grants[serial] = onClose }
                handle(.admitted(serial, granted: true))
            }
        case .refuse:
            queue.async { [self] in handle(.admitted(serial, granted: false)) }
        case .pending(let decide):
            // Counted across replicas: the client's frames wait (reading is paused) meanwhile.
            Task { [self] in
                let decision = await decide()
                queue.async { [self] in admit(serial, decision) }
            }
        }
    }

    private func record(running: Int, held: Int) {
        for (meter, change) in [(metrics.subscriptions, running), (metrics.heldEvents, held)] where change != 0 {
            if change > 0 { meter.increment(by: Double(change)) } else { meter.decrement(by: Double(-change)) }
        }
    }

    // MARK: The socket

    /// The subscriber of the session's messages: one frame at a time, into the queue.
    private final class Reader: Subscriber, @unchecked Sendable {
        // Sendable: the multiplexer is thread-safe through its queue.
        typealias Input = WebSocketSession.Message
        typealias Failure = Never

        private let mux: PipelineMultiplexer

        init(_ mux: PipelineMultiplexer) { self.mux = mux }

        func receive(subscription: any Subscription) {
            nonisolated(unsafe) let subscription = subscription
            mux.queue.async { [mux] in
                mux.inbound = subscription
                subscription.request(.max(1))
            }
        }

        func receive(_ input: WebSocketSession.Message) -> Subscribers.Demand {
            let frame: MuxClientFrame = switch input {
            case .text(let text): MuxClientFrame(text: text)
            case .binary: .refused(id: nil, code: .badMessage, message: "binary frames are not accepted; send JSON text")
            }
            mux.queue.async { [mux] in mux.handle(.frame(frame)) }
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {
            mux.queue.async { [mux] in
                mux.inbound = nil
                mux.handle(.closed)
            }
        }
    }
}

import HTTPServer
import PipelineWire
import StreamCore
import WebSocketPublishers

/// One `/ws/pipelines` connection: carries out what its `MuxStateMachine` decides, on the
/// connection's event loop, which owns the machine, the running instances (whose pipelines time
/// on the same loop), the sessions fair use granted and the inbound subscription — all in one
/// `LoopBound`. What comes from elsewhere (an instance's event answered upstream, fair use's
/// answer across replicas) hops to the loop first. Every job joins one queue in the order it
/// came, whichever thread it came from, and the loop carries them out in that order: one that
/// comes on the loop does not overtake one another thread queued before it (a trace's `t`
/// would go backwards on the wire), and one that comes while actions are being carried out (an
/// instance's `hello` as it starts) waits until those actions are done.
///
/// Client frames are read one at a time: the next is requested when the machine says
/// `readNext` (at once, or when fair use has answered for a subscription). Frames go out through
/// `WebSocketSession.send`, so the connection's `webSocket.outboundLimitBytes` still closes a
/// client that never reads.
final class PipelineMultiplexer: Sendable {
    private typealias Serial = MuxStateMachine.Serial

    /// Something for the loop to do, in its turn.
    private enum Job: Sendable {
        /// Feed the machine, then carry out its actions.
        case input(MuxStateMachine.Input)
        /// Work in its place among the actions (for the state only actions touch).
        case work(@Sendable () -> Void)
    }

    /// What the connection's loop owns.
    private struct State {
        var machine: MuxStateMachine
        var instances: [Serial: PipelineInstance] = [:]
        /// What gives back each session fair use granted, by the subscription it was granted for.
        var grants: [Serial: @Sendable () -> Void] = [:]
        var inbound: (any Subscription)?

        /// Feeds the machine; returns its actions and how its gauges changed.
        mutating func handle(_ input: MuxStateMachine.Input) -> (actions: [MuxStateMachine.Action], running: Int, held: Int) {
            let (running, held) = (machine.running, machine.held)
            let actions = machine.handle(input)
            return (actions, machine.running - running, machine.held - held)
        }
    }

    private let session: WebSocketSession
    private let context: PipelineDescriptor.Context
    private let quota: ClientQuota
    private let metrics: MuxMetrics
    private let state: LoopBound<State>
    /// The jobs from any thread, carried out on the loop in the order they came.
    private let jobs: LoopJobQueue<Job>

    private init(session: WebSocketSession, context: PipelineDescriptor.Context, settings: MuxStateMachine.Settings, metrics: MuxMetrics) {
        self.session = session
        self.context = context
        quota = context.fairUse.quota(for: session.request)
        self.metrics = metrics
        state = LoopBound(sending: State(machine: MuxStateMachine(settings: settings)), loop: session.loop)
        jobs = LoopJobQueue(loop: session.loop)
    }

    /// Serves `session` until it closes; closing it cancels every subscription.
    static func attach(
        _ session: WebSocketSession, context: PipelineDescriptor.Context, settings: MuxStateMachine.Settings, metrics: MuxMetrics
    ) {
        // The session holds the reader, which holds the multiplexer, until the socket closes.
        session.messages.subscribe(Reader(PipelineMultiplexer(session: session, context: context, settings: settings, metrics: metrics)))
    }

    // MARK: The machine

    /// Feeds the machine from any thread (on the loop, in its turn).
    private func handle(_ input: MuxStateMachine.Input) { submit(.input(input)) }

    /// Runs `work` on the loop in its place among the actions.
    private func inOrder(_ work: @escaping @Sendable () -> Void) { submit(.work(work)) }

    private func submit(_ job: Job) {
        jobs.submit(job) { [self] in carryOut($0) }
    }

    /// On the loop, in the job's turn.
    private func carryOut(_ job: Job) {
        switch job {
        case .input(let input):
            let (actions, running, held) = state.value.handle(input)
            record(running: running, held: held)
            for action in actions { perform(action) }
        case .work(let work):
            work()
        }
    }

    /// Carries one action out (on the loop, no access to the state open while it calls out).
    private func perform(_ action: MuxStateMachine.Action) {
        switch action {
        case .send(let frame):
            if case .completion(_, let failure?) = frame, failure.code == .overflow { metrics.overflows.increment() }
            session.send(.text(frame.json))
        case .start(let serial, let pipeline, let trace):
            let output = PipelineInstance.Output(
                event: forward { .event(serial, $0) }, trace: trace ? forward { .trace(serial, $0) } : nil
            )
            let instance: PipelineInstance
            switch pipeline {
            case .catalog(let name):
                guard let descriptor = PipelineDescriptor.named(name) else { return }
                instance = descriptor.start(context, quota, output)
            case .composed(let definition):
                instance = ComposedInstance.start(definition: definition, context: context, quota: quota, output: output)
            }
            state.value.instances[serial] = instance
            metrics.started.increment()
        case .deliver(let serial, let message):
            let instance = state.value.instances[serial]
            instance?.receive(message)
        case .tearDown(let serial):
            let instance = state.value.instances.removeValue(forKey: serial)
            instance?.cancel()
        case .openSession(let serial):
            admit(serial, context.fairUse.admitSession(session.request))
        case .closeSession(let serial):
            let giveBack = state.value.grants.removeValue(forKey: serial)
            giveBack?()
        case .readNext:
            let inbound = state.value.inbound
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
            if let onClose { inOrder { [self] in state.value.grants[serial] = onClose } }
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

    /// The subscriber of the session's messages: one frame at a time, into the machine. Its
    /// calls come on the session's loop.
    private final class Reader: Subscriber {
        typealias Input = WebSocketSession.Message
        typealias Failure = Never

        private let mux: PipelineMultiplexer

        init(_ mux: PipelineMultiplexer) { self.mux = mux }

        // On the loop, where the inbound subscription is kept; no access to the state is open
        // when these come (`perform` calls out with none open).
        func receive(subscription: any Subscription) {
            mux.state.value.inbound = subscription
            subscription.request(.max(1))
        }

        func receive(_ input: WebSocketSession.Message) -> Subscribers.Demand {
            mux.handle(Self.read(input))
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {
            mux.state.value.inbound = nil
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

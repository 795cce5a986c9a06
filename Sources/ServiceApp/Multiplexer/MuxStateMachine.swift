import PipelineWire
import StreamCore

/// The protocol of one `/ws/pipelines` connection as a pure state machine: fed what happens
/// (a client frame, an instance's event, a fair-use answer, the socket closing), it returns what
/// to do, in order. It holds the subscriptions' demand and the events waiting for it; it never
/// touches a socket or an instance (`PipelineMultiplexer` does, in the order it returned them).
///
/// Sessions (`limits.sessionsPerClient`): the connection itself was counted as one session when
/// it was upgraded; that session covers one subscription (the *base*), and every other
/// subscription asks fair use for one more (`openSession`) before it starts. When the base
/// subscription ends, another subscription takes the base over and gives its own session back,
/// so the connection counts max(1, live subscriptions) sessions.
struct MuxStateMachine: Sendable {
    /// Identifies one subscription for its whole life; an id may be reused, a serial never.
    typealias Serial = UInt64

    struct Settings: Sendable, Equatable {
        /// Live subscriptions per connection (`mux.maxSubscriptions`).
        var maxSubscriptions = 16
        /// Events waiting for demand per subscription (`mux.maxPendingEvents`).
        var maxPendingEvents = 256
        /// The catalog's pipeline names.
        var pipelines: Set<String> = Set(PipelineDescriptor.all.map(\.name))
        /// What a definition may ask for (the `"composer"` group).
        var composer = ComposerLimits()
    }

    /// What happened.
    enum Input: Sendable {
        /// The client sent a frame (read once the previous frame's `readNext` was done).
        case frame(MuxClientFrame)
        /// The client sent a frame that cannot be taken (answered with an `error` frame; read,
        /// like any frame, once the previous frame's `readNext` was done).
        case refused(MuxFrameError)
        /// Fair use answered `openSession(serial)`.
        case admitted(Serial, granted: Bool)
        /// The instance of `serial` produced an event (JSON text).
        case event(Serial, String)
        /// The instance of `serial` produced a trace event (JSON text).
        case trace(Serial, String)
        /// The socket closed.
        case closed
    }

    /// What to do, in the order given.
    enum Action: Equatable, Sendable {
        case send(MuxServerFrame)
        /// Start an instance of `pipeline` for `serial` (with traces when `trace`).
        case start(Serial, pipeline: Pipeline, trace: Bool)
        /// Give the instance of `serial` one frame of its endpoint.
        case deliver(Serial, message: String)
        /// Tear the instance of `serial` down (its upstream requests are cancelled).
        case tearDown(Serial)
        /// Ask fair use for one more session, for `serial`; answer with `.admitted`.
        case openSession(Serial)
        /// Give back the session fair use granted for `serial`.
        case closeSession(Serial)
        /// Read the client's next frame.
        case readNext
    }

    /// What a subscription runs: a catalog pipeline, or a definition the client composed
    /// (checked against `settings.composer` before anything was kept for it).
    enum Pipeline: Equatable, Sendable {
        case catalog(String)
        case composed(PipelineDefinition)

        /// The `pipeline` of the `subscribed` frame.
        var name: String {
            switch self {
            case .catalog(let name): name
            case .composed: ComposedEvent.pipelineName
            }
        }
    }

    private struct Subscription {
        /// Which session counts a running subscription.
        enum Share: Equatable { case base, extra }

        enum Phase: Equatable {
            /// Waiting for fair use to grant a session (`openSession`); nothing started yet.
            case admitting(trace: Bool)
            /// Its instance runs, counted by the connection's own session or by an extra one.
            case running(Share)
        }

        let serial: Serial
        let pipeline: Pipeline
        var phase: Phase
        var demand: Subscribers.Demand
        /// Events produced while demand was 0, oldest first (at most `maxPendingEvents`).
        var held: [String] = []
    }

    private enum State {
        case open
        case closed
    }

    let settings: Settings
    private var state = State.open
    private var subscriptions: [String: Subscription] = [:]
    private var ids: [Serial: String] = [:]
    private var nextSerial: Serial = 1
    /// Whether no subscription is counted by the connection's own session.
    private var baseIsFree: Bool { !subscriptions.values.contains { $0.phase == .running(.base) } }

    /// Running subscriptions (gauge `mux_subscriptions`).
    private(set) var running = 0
    /// Events waiting for demand, over all subscriptions (gauge `mux_events_held`).
    private(set) var held = 0

    init(settings: Settings) { self.settings = settings }

    /// Feeds one input; returns the actions, in order.
    mutating func handle(_ input: Input) -> [Action] {
        guard case .open = state else {
            // After close only a late session grant matters: give it back.
            if case .admitted(let serial, true) = input { return [.closeSession(serial)] }
            return []
        }
        switch input {
        case .frame(let frame):
            // The next frame is read at once, unless this one waits for fair use (`admitted`).
            let actions = receive(frame)
            if case .openSession? = actions.last { return actions }
            return actions + [.readNext]
        case .refused(let error):
            return [.send(.error(id: error.id, code: error.code, message: error.message)), .readNext]
        case .admitted(let serial, let granted): return admitted(serial, granted: granted)
        case .event(let serial, let event): return produced(serial, event)
        case .trace(let serial, let trace):
            guard let id = ids[serial] else { return [] }
            return [.send(.trace(id: id, trace: trace))]
        case .closed: return close()
        }
    }

    // MARK: Client frames

    private mutating func receive(_ frame: MuxClientFrame) -> [Action] {
        switch frame {
        case .subscribe(let id, let pipeline, let demand, let trace):
            return subscribe(id, pipeline: pipeline, demand: Subscribers.Demand(demand), trace: trace)
        case .send(let id, let message):
            guard let subscription = subscriptions[id], case .running = subscription.phase else { return unknown(id) }
            return [.deliver(subscription.serial, message: message.frameText)]
        case .request(let id, let demand):
            guard var subscription = subscriptions[id] else { return unknown(id) }
            subscription.demand += Subscribers.Demand(demand)
            let actions = flush(id, &subscription)
            subscriptions[id] = subscription
            return actions
        case .cancel(let id):
            guard let subscription = subscriptions[id] else { return unknown(id) }
            var actions: [Action] = if case .running = subscription.phase { [.tearDown(subscription.serial)] } else { [] }
            actions += end(id)
            return actions
        }
    }

    private func unknown(_ id: String) -> [Action] {
        [.send(.error(id: id, code: .unknownID, message: "no live subscription has this id"))]
    }

    private mutating func subscribe(_ id: String, pipeline name: MuxPipelineName, demand: Subscribers.Demand, trace: Bool) -> [Action] {
        // Every check before anything is kept for the subscription.
        guard subscriptions[id] == nil else {
            return [.send(.error(id: id, code: .duplicateID, message: "a live subscription has this id"))]
        }
        let pipeline: Pipeline
        switch name {
        case .catalog(let name):
            guard settings.pipelines.contains(name) else {
                return [.send(.error(id: id, code: .unknownPipeline, message: "no pipeline is called \"\(name.prefix(64))\" (see GET /api/pipelines)"))]
            }
            pipeline = .catalog(name)
        case .composed(let text):
            do {
                pipeline = .composed(try PipelineDefinition(decoding: text, limits: settings.composer))
            } catch {
                return [.send(.error(id: id, code: .badPipeline, message: error.message, stage: error.stage))]
            }
        }
        guard subscriptions.count < settings.maxSubscriptions else {
            return [.send(.error(id: id, code: .tooManySubscriptions, message: "at most \(settings.maxSubscriptions) subscriptions per connection"))]
        }
        let serial = nextSerial
        nextSerial += 1
        ids[serial] = id
        guard baseIsFree else {
            subscriptions[id] = Subscription(serial: serial, pipeline: pipeline, phase: .admitting(trace: trace), demand: demand)
            return [.openSession(serial)]
        }
        subscriptions[id] = Subscription(serial: serial, pipeline: pipeline, phase: .running(.base), demand: demand)
        running += 1
        return [.send(.subscribed(id: id, pipeline: pipeline.name)), .start(serial, pipeline: pipeline, trace: trace)]
    }

    /// Fair use's answer for a subscription waiting to start.
    private mutating func admitted(_ serial: Serial, granted: Bool) -> [Action] {
        guard let id = ids[serial], var subscription = subscriptions[id], case .admitting(let trace) = subscription.phase else {
            return granted ? [.closeSession(serial), .readNext] : [.readNext]
        }
        guard granted else {
            subscriptions[id] = nil
            ids[serial] = nil
            return [
                .send(.error(id: id, code: .tooManySessions, message: "this client has its most sessions open (each subscription counts)")),
                .readNext,
            ]
        }
        var actions: [Action] = []
        if baseIsFree {
            // The base ended while this one waited: it takes the base over, the grant goes back.
            subscription.phase = .running(.base)
            actions.append(.closeSession(serial))
        } else {
            subscription.phase = .running(.extra)
        }
        subscriptions[id] = subscription
        running += 1
        return actions + [.send(.subscribed(id: id, pipeline: subscription.pipeline.name)), .start(serial, pipeline: subscription.pipeline, trace: trace), .readNext]
    }

    // MARK: Demand

    /// An instance produced an event: sent if there is demand, else held; one more than
    /// `maxPendingEvents` held ends the subscription with `overflow`.
    private mutating func produced(_ serial: Serial, _ event: String) -> [Action] {
        guard let id = ids[serial], var subscription = subscriptions[id] else { return [] }
        if subscription.demand > 0 {
            subscription.demand -= 1
            subscriptions[id] = subscription
            return [.send(.event(id: id, event: event))]
        }
        guard subscription.held.count < settings.maxPendingEvents else {
            return [.send(.overflow(id: id, limit: settings.maxPendingEvents)), .tearDown(serial)] + end(id)
        }
        subscription.held.append(event)
        held += 1
        subscriptions[id] = subscription
        return []
    }

    /// Sends held events while there is demand.
    private mutating func flush(_ id: String, _ subscription: inout Subscription) -> [Action] {
        var sent = 0
        while sent < subscription.held.count, subscription.demand > 0 {
            subscription.demand -= 1
            sent += 1
        }
        held -= sent
        let actions: [Action] = subscription.held.prefix(sent).map { .send(.event(id: id, event: $0)) }
        subscription.held.removeFirst(sent)
        return actions
    }

    // MARK: Ending

    /// Forgets subscription `id` (cancelled or failed) and settles its session.
    private mutating func end(_ id: String) -> [Action] {
        guard let subscription = subscriptions.removeValue(forKey: id) else { return [] }
        ids[subscription.serial] = nil
        held -= subscription.held.count
        switch subscription.phase {
        case .admitting: return []
        case .running(.extra):
            running -= 1
            return [.closeSession(subscription.serial)]
        case .running(.base):
            running -= 1
            // The oldest other running subscription takes the base over and gives its own session back.
            guard let (heir, next) = subscriptions.filter({ $0.value.phase == .running(.extra) }).min(by: { $0.value.serial < $1.value.serial }) else {
                return []
            }
            var taken = next
            taken.phase = .running(.base)
            subscriptions[heir] = taken
            return [.closeSession(taken.serial)]
        }
    }

    /// The socket closed: every instance is torn down, every extra session given back.
    private mutating func close() -> [Action] {
        state = .closed
        var actions: [Action] = []
        for subscription in subscriptions.values.sorted(by: { $0.serial < $1.serial }) {
            guard case .running(let share) = subscription.phase else { continue }
            actions.append(.tearDown(subscription.serial))
            if share == .extra { actions.append(.closeSession(subscription.serial)) }
        }
        subscriptions = [:]
        ids = [:]
        running = 0
        held = 0
        return actions
    }
}

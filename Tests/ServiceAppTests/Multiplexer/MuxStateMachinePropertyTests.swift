import HTTPTestSupport
import PipelineWire
import StreamCore
import XCTest

@testable import ServiceApp

/// Random (seeded, reproducible) interleavings of subscribe / send / request / cancel on several
/// ids, with instances producing events and fair use answering at random, against a model:
/// no id ever gets more events than it requested, each subscription's events are its
/// instance's, in order, and every count the machine keeps matches.
final class MuxStateMachinePropertyTests: XCTestCase {
    private struct Model {
        var serial: MuxStateMachine.Serial
        var requested: Subscribers.Demand
        var produced: [String] = []
        var sent: [String] = []
        var running = false
    }

    func testRandomInterleavingsKeepDemandOrderAndCounts() {
        for seed in UInt64(1)...300 {
            run(seed: seed, steps: 300)
        }
    }

    private func run(seed: UInt64, steps: Int) {
        var random = SeededGenerator(seed: seed)
        let settings = MuxStateMachine.Settings(maxSubscriptions: 3, maxPendingEvents: 4)
        var mux = MuxStateMachine(settings: settings)
        let ids = ["a", "b", "c", "d"]
        var live: [String: Model] = [:]
        var ended: [MuxStateMachine.Serial] = []
        var nextSerial: MuxStateMachine.Serial = 1
        var waitingForFairUse: MuxStateMachine.Serial?
        var granted: Set<MuxStateMachine.Serial> = []
        let context = "seed \(seed)"

        func apply(_ input: MuxStateMachine.Input) {
            for action in mux.handle(input) {
                switch action {
                case .send(.event(let id, let event)):
                    guard var model = live[id], model.running else { return XCTFail("\(context): event for \(id), not running") }
                    model.sent.append(event)
                    XCTAssertTrue(model.requested >= model.sent.count, "\(context): \(id) got \(model.sent.count), requested \(model.requested)")
                    XCTAssertEqual(model.sent, Array(model.produced.prefix(model.sent.count)), "\(context): \(id) out of order")
                    live[id] = model
                case .send(.completion(let id, let failure?)) where failure.code == .overflow:
                    guard let model = live.removeValue(forKey: id) else { return XCTFail("\(context): overflow for \(id), not live") }
                    XCTAssertEqual(model.produced.count - model.sent.count, settings.maxPendingEvents + 1, "\(context): \(id) overflowed early")
                    ended.append(model.serial)
                case .send(.subscribed(let id, _)):
                    XCTAssertEqual(live[id]?.running, false, "\(context): subscribed \(id) twice")
                case .send(.error(let id, let code, _, _)):
                    if code == .tooManySessions, let id { live[id] = nil }
                case .send: break
                case .start(let serial, _, _):
                    guard let id = live.first(where: { $0.value.serial == serial })?.key else { return XCTFail("\(context): start of unknown \(serial)") }
                    live[id]?.running = true
                case .tearDown(let serial):
                    XCTAssertFalse(live.values.contains { $0.serial == serial }, "\(context): tore down \(serial) still live")
                case .openSession(let serial): waitingForFairUse = serial
                case .closeSession(let serial):
                    XCTAssertNotNil(granted.remove(serial), "\(context): gave back \(serial), never granted")
                case .deliver, .readNext: break
                }
            }
        }

        for _ in 0..<steps {
            let id = ids.randomElement(using: &random)!
            if let serial = waitingForFairUse {
                // The client's frames wait; instances may still produce.
                waitingForFairUse = nil
                let yes = Bool.random(using: &random)
                if yes { granted.insert(serial) }
                apply(.admitted(serial, granted: yes))
                continue
            }
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:
                let demand: Subscribers.Demand = Int.random(in: 0..<5, using: &random) == 0 ? .unlimited : .max(Int.random(in: 0...3, using: &random))
                let isNew = live[id] == nil && live.count < settings.maxSubscriptions
                if isNew {
                    live[id] = Model(serial: nextSerial, requested: demand)
                    nextSerial += 1
                }
                apply(.frame(.subscribe(id: id, pipeline: "form", demand: MuxDemand(demand), trace: false)))
            case 2:
                let demand: Subscribers.Demand = Int.random(in: 0..<8, using: &random) == 0 ? .unlimited : .max(Int.random(in: 1...3, using: &random))
                live[id]?.requested += demand
                apply(.frame(.request(id: id, demand: MuxDemand(demand))))
            case 3:
                if let model = live.removeValue(forKey: id) { ended.append(model.serial) }
                apply(.frame(.cancel(id: id)))
            case 4:
                apply(.frame(.send(id: id, message: .text("m"))))
            case 5:
                // A torn-down instance's late event changes nothing.
                if let serial = ended.randomElement(using: &random) {
                    XCTAssertEqual(mux.handle(.event(serial, "late")), [], context)
                }
            default:
                guard let model = live[id], model.running else { continue }
                let event = "\(model.serial)-\(model.produced.count)"
                live[id]?.produced.append(event)
                apply(.event(model.serial, event))
            }
            XCTAssertEqual(mux.running, live.values.filter(\.running).count, "\(context): running")
            XCTAssertEqual(mux.held, live.values.reduce(0) { $0 + $1.produced.count - $1.sent.count }, "\(context): held")
        }
        // Whatever is live gets everything once it asks for it.
        if let serial = waitingForFairUse {
            granted.insert(serial)
            apply(.admitted(serial, granted: true))
        }
        for id in live.keys.sorted() {
            live[id]?.requested += .unlimited
            apply(.frame(.request(id: id, demand: .unlimited)))
            XCTAssertEqual(live[id]?.sent, live[id]?.produced, "\(context): \(id) after unlimited demand")
        }
        live = [:]
        apply(.closed)
        XCTAssertEqual(granted, [], "\(context): every granted session given back")
        XCTAssertEqual([mux.running, mux.held], [0, 0], context)
    }
}

private extension MuxDemand {
    /// The model's demand as the frame carries it.
    init(_ demand: Subscribers.Demand) {
        self = demand.max.map { .max($0) } ?? .unlimited
    }
}

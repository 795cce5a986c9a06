import Foundation
import HTTPTestSupport
import StreamCore
import XCTest

@testable import ServiceApp

/// Random (seeded, reproducible) interleavings of subscribe / send / request / cancel and
/// garbage on four ids over a real `/ws/pipelines` socket: no id ever gets more events than it
/// requested (`MuxClient` checks every event), each subscription's events are exactly those of
/// a reference instance of its pipeline fed the same messages — as many as the demand allows —
/// and an overflow comes exactly when more than `mux.maxPendingEvents` wait.
final class MuxPropertyTests: EndToEndTestCase {
    private struct Live {
        let reference: PipelineInstance
        let produced: Box<[String]>
        var requested: Subscribers.Demand
    }

    private let maxPendingEvents = 4

    func testRandomInterleavingsOverARealSocket() throws {
        try startService { [maxPendingEvents] config in
            config.mux.maxPendingEvents = maxPendingEvents
            config.mux.maxSubscriptions = 3
            config.fairUse.sessionsPerClient = 1_000
        }
        var totals = (events: 0, overflows: 0, errors: 0)
        for seed in UInt64(1)...6 {
            let frames = try run(seed: seed, steps: 80)
            totals.events += frames.filter { $0.type == "event" }.count
            totals.overflows += frames.filter { $0.failure == "overflow" }.count
            totals.errors += frames.filter { $0.type == "error" && !($0.id ?? "").hasPrefix("barrier-") }.count
        }
        // The interleavings reach what they are meant to check.
        XCTAssertGreaterThan(totals.events, 100, "\(totals)")
        XCTAssertGreaterThan(totals.overflows, 0, "\(totals)")
        XCTAssertGreaterThan(totals.errors, 10, "\(totals)")
    }

    /// One interleaving; returns every frame the client read.
    private func run(seed: UInt64, steps: Int) throws -> [MuxClient.Frame] {
        var random = SeededGenerator(seed: seed)
        let mux = try MuxClient(port: port)
        var live: [String: Live] = [:]
        let values = ["", "ab", "abc", "secret", "secreT", "é👍🏽é"]
        let fields = ["value1", "value2", "value2_repeat"]
        let context = "seed \(seed)"

        for step in 0..<steps {
            let id = ["a", "b", "c", "d"].randomElement(using: &random)!
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:
                let demand: Subscribers.Demand = Bool.random(using: &random) ? .max(Int.random(in: 0...3, using: &random)) : .unlimited
                if live[id] == nil, live.count < 3 {
                    let produced = Box<[String]>([])
                    let reference = FormInstance.start(
                        scheduler: DispatchQueue.global().eraseToAnyScheduler(),
                        output: .init(event: { event in produced.mutate { $0.append(normalizedJSON(text: event)) } }, trace: nil)
                    )
                    live[id] = Live(reference: reference, produced: produced, requested: demand)
                }
                try mux.subscribe(id, "form", demand: demand)
            case 2, 3, 4:
                let message: [String: Any] = Int.random(in: 0..<5, using: &random) == 0
                    ? ["type": "submit"]
                    : ["type": "field", "name": fields.randomElement(using: &random)!, "value": values.randomElement(using: &random)!]
                live[id]?.reference.receive(normalizedJSON(message))
                try mux.send(id, message)
            case 5, 6:
                let demand: Subscribers.Demand = Int.random(in: 0..<6, using: &random) == 0 ? .unlimited : .max(Int.random(in: 1...3, using: &random))
                live[id]?.requested += demand
                try mux.request(id, demand)
            case 7:
                live[id]?.reference.cancel()
                live[id] = nil
                try mux.cancel(id)
            default:
                let garbage = ["{", "[]", #"{"type":7}"#, #"{"type":"request","id":"a","n":-2}"#, String(repeating: "z", count: Int.random(in: 0...300, using: &random))]
                try mux.sendText(garbage.randomElement(using: &random)!)
            }
            try mux.barrier()
            for (id, model) in live {
                let produced = model.produced.value
                let delivered = model.requested >= produced.count ? produced.count : model.requested.max ?? produced.count
                let overflowed = mux.frames(for: id).last { $0.type == "completion" || $0.type == "subscribed" }?.type == "completion"
                if produced.count - delivered > maxPendingEvents {
                    XCTAssertTrue(overflowed, "\(context) step \(step): \(id) should have overflowed")
                    XCTAssertEqual(mux.frames(for: id).last { $0.type == "completion" }?.failure, "overflow", context)
                    model.reference.cancel()
                    live[id] = nil
                    continue
                }
                XCTAssertFalse(overflowed, "\(context) step \(step): \(id) overflowed early")
                XCTAssertEqual(mux.events[id] ?? [], Array(produced.prefix(delivered)), "\(context) step \(step): \(id)")
            }
        }
        for (id, model) in live.sorted(by: { $0.key < $1.key }) {
            try mux.request(id, .unlimited)
            try mux.barrier()
            XCTAssertEqual(mux.events[id] ?? [], model.produced.value, "\(context): \(id) with unlimited demand")
            model.reference.cancel()
        }
        mux.close()
        return mux.frames
    }
}

import Dispatch
import Foundation
import HTTPServer
import Locking
@_spi(ServerSupport) import StreamCore

/// The `?trace=1` events of one session: for every event at every traced stage,
/// `{"event":"value","stage":"throttle","t":1234.5,"type":"trace","value":"heck"}` — `t` in
/// milliseconds since the session opened on the pipeline's scheduler, non-decreasing in the
/// order the events are sent.
///
/// Events are stamped in order under the lock and sent outside it, in the same order (an
/// `OrderedHandoff`), so `send` never runs under the lock and may itself trace.
final class PipelineTracer: Sendable {
    private let start: DispatchQueue.SchedulerTimeType
    /// The last stamp sent, which the next may not go below.
    private let lastMs = Locked(0.0)
    private let handoff: OrderedHandoff<String>

    /// - Parameter send: writes one event (the session's outbound: bounded like every event).
    init(scheduler: AnySchedulerOf<DispatchQueue>, send: @escaping @Sendable (String) -> Void) {
        start = scheduler.now
        handoff = OrderedHandoff(receive: send)
    }

    /// A tracer for `.trace(_:on:to:)` whose values `describe` turns into JSON values (strings,
    /// numbers, booleans, arrays or dictionaries of them; nil is `null`).
    func tracer<Value, Failure: Error>(
        describe: @escaping (Value) -> Any? = { "\($0)" }
    ) -> (String, TraceEvent<Value, Failure>, DispatchQueue.SchedulerTimeType) -> Void {
        { [self] stage, event, time in
            var object: [String: Any] = ["type": "trace", "stage": stage]
            switch event {
            case .subscription: object["event"] = "subscription"
            case .value(let value):
                object["event"] = "value"
                object["value"] = describe(value) ?? NSNull()
            case .completion(.finished): object["event"] = "completion"
            case .completion(.failure(let error)):
                object["event"] = "completion"
                object["failure"] = "\(error)"
            case .cancel: object["event"] = "cancel"
            }
            let ms = Double(start.distance(to: time).magnitude) / 1_000_000
            lastMs.withLock { lastMs in
                lastMs = max(lastMs, (ms * 10).rounded() / 10)
                object["t"] = lastMs
                handoff.enqueue(Self.json(object))
            }
            handoff.deliverQueued()
        }
    }

    /// Whether the upgrade asked for traces (`?trace=1` or `?trace=true`).
    static func isRequested(by request: HTTPRequest) -> Bool {
        guard let query = request.query else { return false }
        return query.split(separator: "&").contains { $0 == "trace=1" || $0 == "trace=true" }
    }

    private static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return #"{"type":"trace"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }
}

extension Publisher {
    /// `trace(_:on:to:)` with the session's tracer, if any (nil: not in the chain at all).
    func traced(
        _ stage: some PipelineStage, _ tracer: PipelineTracer?, on scheduler: AnySchedulerOf<DispatchQueue>,
        describe: @escaping (Output) -> Any? = { "\($0)" }
    ) -> Publishers.Trace<Self, AnySchedulerOf<DispatchQueue>> {
        trace(stage.rawValue, on: scheduler, to: tracer?.tracer(describe: describe))
    }
}

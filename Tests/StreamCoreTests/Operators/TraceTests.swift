import Dispatch
import StreamCore
import XCTest

/// `trace(_:on:to:)`: every event of every traced stage, stamped on the test scheduler's clock.
final class TraceTests: XCTestCase {
    private enum Failure: Error { case boom }

    /// Records "t stage event" lines, t in milliseconds since `start`.
    private final class Recorder: @unchecked Sendable {
        // Sendable: `lines` is guarded by `lock`.
        private let lock = NSLock()
        private var recorded: [String] = []
        let start: DispatchQueue.SchedulerTimeType
        init(start: DispatchQueue.SchedulerTimeType) { self.start = start }

        func tracer<Value, F: Error>() -> (String, TraceEvent<Value, F>, DispatchQueue.SchedulerTimeType) -> Void {
            { [self] stage, event, time in
                let ms = start.distance(to: time).magnitude / 1_000_000
                let text: String = switch event {
                case .subscription: "subscription"
                case .value(let value): "value \(value)"
                case .completion(.finished): "finished"
                case .completion(.failure(let error)): "failure \(error)"
                case .cancel: "cancel"
                }
                lock.withLock { recorded.append("\(ms) \(stage) \(text)") }
            }
        }

        var lines: [String] { lock.withLock { recorded } }
    }

    func testEveryStageReportsOnTheSchedulersClock() {
        let scheduler = DispatchQueue.test
        let recorder = Recorder(start: scheduler.now)
        let input = PassthroughSubject<String, Never>()
        var received: [String] = []
        let cancellable = input
            .trace("input", on: scheduler, to: recorder.tracer())
            .throttle(for: .milliseconds(500), scheduler: scheduler, latest: true)
            .trace("throttle", on: scheduler, to: recorder.tracer())
            .sink { received.append($0) }
        scheduler.advance(by: .milliseconds(100))
        input.send("h")
        scheduler.advance(by: .milliseconds(100))
        input.send("he")
        scheduler.advance(by: .milliseconds(100))
        input.send("hec")
        scheduler.advance(by: .milliseconds(600))
        cancellable.cancel()
        XCTAssertEqual(received, ["h", "hec"])
        XCTAssertEqual(recorder.lines, [
            "0 input subscription", "0 throttle subscription",
            "100 input value h", "100 throttle value h",
            "200 input value he", "300 input value hec", "600 throttle value hec",
            "900 throttle cancel", "900 input cancel",
        ])
    }

    func testCompletionAndFailureAreReported() {
        let scheduler = DispatchQueue.test
        let recorder = Recorder(start: scheduler.now)
        _ = Fail<Int, Failure>(error: .boom).trace("lookup", on: scheduler, to: recorder.tracer()).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        _ = Just(7).trace("just", on: scheduler, to: recorder.tracer()).sink { _ in }
        XCTAssertEqual(recorder.lines, ["0 lookup subscription", "0 lookup failure boom", "0 just subscription", "0 just value 7", "0 just finished"])
    }

    func testWithoutATracerTheStageIsNotInTheChain() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        var direct: String?
        var traced: String?
        _ = subject.sink(receiveSubscription: { direct = "\(type(of: $0))" })
        _ = subject.trace("x", on: scheduler, to: nil).sink(receiveSubscription: { traced = "\(type(of: $0))" })
        XCTAssertNotNil(direct)
        XCTAssertEqual(traced, direct, "the subscriber gets the upstream's own subscription")
    }
}

private extension Publisher {
    func sink(receiveSubscription: @escaping (Subscription) -> Void) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let spy = AnySubscriber<Output, Failure>(
            receiveSubscription: { subscription in receiveSubscription(subscription); sink.receive(subscription: subscription) },
            receiveValue: { sink.receive($0) }, receiveCompletion: { sink.receive(completion: $0) }
        )
        subscribe(spy)
        return AnyCancellable(sink)
    }
}

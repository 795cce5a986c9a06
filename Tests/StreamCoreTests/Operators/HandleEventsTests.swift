import StreamCore
import XCTest

/// An upstream under the test's control that logs the requests and cancels it receives.
private final class ManualUpstream<Output, Failure: Error>: Publisher, Subscription {
    private(set) var downstream: AnySubscriber<Output, Failure>?
    var log: [String] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        downstream = AnySubscriber(subscriber)
        subscriber.receive(subscription: self)
    }

    var description: String { "ManualUpstream" }
    func request(_ demand: Subscribers.Demand) { log.append("upstream request \(demand)") }
    func cancel() { log.append("upstream cancel") }
    func send(_ value: Output) -> Subscribers.Demand { downstream!.receive(value) }
    func send(completion: Subscribers.Completion<Failure>) { downstream!.receive(completion: completion) }
}

final class HandleEventsTests: XCTestCase {
    /// One shared log for the callbacks, the downstream and the upstream, to check ordering.
    private final class Log { var lines: [String] = [] }

    private func pipeline(
        _ upstream: ManualUpstream<Int, TestError>,
        log: Log,
        initialDemand: Subscribers.Demand = .max(2),
        demandPerValue: @escaping (Int) -> Subscribers.Demand = { _ in .none }
    ) -> () -> Subscription? {
        var subscription: Subscription?
        upstream.handleEvents(
            receiveSubscription: { _ in log.lines.append("receiveSubscription") },
            receiveOutput: { log.lines.append("receiveOutput \($0)") },
            receiveCompletion: { log.lines.append("receiveCompletion \($0)") },
            receiveCancel: { log.lines.append("receiveCancel") },
            receiveRequest: { log.lines.append("receiveRequest \($0)") }
        ).subscribe(AnySubscriber<Int, TestError>(
            receiveSubscription: {
                log.lines.append("downstream subscription")
                subscription = $0
                if initialDemand > 0 { $0.request(initialDemand) }
            },
            receiveValue: {
                log.lines.append("downstream value \($0)")
                return demandPerValue($0)
            },
            receiveCompletion: { log.lines.append("downstream completion \($0)") }
        ))
        return { subscription }
    }

    private func flush(_ upstream: ManualUpstream<Int, TestError>, into log: Log) {
        log.lines += upstream.log
        upstream.log = []
    }

    func testOrderingOfEveryCallback() {
        let upstream = ManualUpstream<Int, TestError>()
        let log = Log()
        // The upstream's own log is merged in after each step, as it records separately.
        let subscription = pipeline(upstream, log: log, demandPerValue: { $0 == 2 ? .max(1) : .none })
        flush(upstream, into: log)
        XCTAssertEqual(log.lines, [
            "receiveSubscription", "downstream subscription", "receiveRequest max(2)", "upstream request max(2)",
        ])
        log.lines = []
        XCTAssertEqual(upstream.send(1), .none)
        XCTAssertEqual(upstream.send(2), .max(1))
        XCTAssertEqual(log.lines, [
            "receiveOutput 1", "downstream value 1",
            "receiveOutput 2", "downstream value 2", "receiveRequest max(1)",
        ], "receiveRequest sees non-zero synchronous demand only")
        log.lines = []
        subscription()?.request(.max(5))
        flush(upstream, into: log)
        XCTAssertEqual(log.lines, ["receiveRequest max(5)", "upstream request max(5)"])
        log.lines = []
        upstream.send(completion: .finished)
        XCTAssertEqual(log.lines, ["receiveCompletion finished", "downstream completion finished"])
        log.lines = []
        subscription()?.cancel()
        subscription()?.request(.max(1))
        _ = upstream.send(3)
        upstream.send(completion: .failure(.boom))
        flush(upstream, into: log)
        XCTAssertEqual(log.lines, [], "after completion no callback fires and nothing is forwarded")
    }

    func testCancelFiresOnceBeforeUpstreamCancel() {
        let upstream = ManualUpstream<Int, TestError>()
        let log = Log()
        let subscription = pipeline(upstream, log: log)
        log.lines = []
        upstream.log = []
        subscription()?.cancel()
        flush(upstream, into: log)
        XCTAssertEqual(log.lines, ["receiveCancel", "upstream cancel"])
        log.lines = []
        subscription()?.cancel()
        subscription()?.request(.max(3))
        _ = upstream.send(1)
        upstream.send(completion: .finished)
        flush(upstream, into: log)
        XCTAssertEqual(log.lines, [], "no receiveCompletion after a cancel, no second receiveCancel")
    }

    func testFailureCompletion() {
        let upstream = ManualUpstream<Int, TestError>()
        let log = Log()
        _ = pipeline(upstream, log: log)
        log.lines = []
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(log.lines, ["receiveCompletion failure(StreamCoreTests.TestError.boom)",
                                   "downstream completion failure(StreamCoreTests.TestError.boom)"])
    }

    func testNetworkActivityPatternStartsAndStopsExactlyOnce() {
        var activity: [String] = []
        func tracked<P: Publisher>(_ publisher: P) -> Publishers.HandleEvents<P> {
            publisher.handleEvents(
                receiveSubscription: { _ in activity.append("start") },
                receiveCompletion: { _ in activity.append("stop") },
                receiveCancel: { activity.append("stop") }
            )
        }
        // Completes, then the cancellable is cancelled and released: one stop.
        var cancellable: AnyCancellable? = tracked(Just(1)).sink { _ in }
        cancellable?.cancel()
        cancellable = nil
        XCTAssertEqual(activity, ["start", "stop"])
        // Cancelled before completing: one stop, from receiveCancel.
        activity = []
        let subject = PassthroughSubject<Int, Never>()
        cancellable = tracked(subject).sink { _ in }
        cancellable = nil
        subject.send(completion: .finished)
        XCTAssertEqual(activity, ["start", "stop"])
        // Fails: one stop, from receiveCompletion.
        activity = []
        cancellable = tracked(Fail<Int, TestError>(error: .boom)).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        cancellable?.cancel()
        XCTAssertEqual(activity, ["start", "stop"])
    }

    func testDemandAndValuesPassThrough() {
        var requests: [Subscribers.Demand] = []
        var outputs: [Int] = []
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        (1...10).publisher
            .handleEvents(receiveOutput: { outputs.append($0) }, receiveRequest: { requests.append($0) })
            .subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertEqual(outputs, [1, 2])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1, 2, 3])
        XCTAssertEqual(requests, [.max(2), .max(1)])
    }

    func testClosuresAreReleasedAfterCancel() {
        final class Witness {}
        weak var weakWitness: Witness?
        let subject = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let witness = Witness()
            weakWitness = witness
            cancellable = subject.handleEvents(receiveOutput: { _ in _ = witness }).sink { _ in }
        }
        XCTAssertNotNil(weakWitness)
        cancellable?.cancel()
        XCTAssertNil(weakWitness)
        _ = cancellable
    }

    func testSecondSubscriptionIsCancelled() {
        let upstream = ManualUpstream<Int, TestError>()
        let log = Log()
        _ = pipeline(upstream, log: log)
        let extra = ManualUpstream<Int, TestError>()
        upstream.downstream?.receive(subscription: extra)
        XCTAssertEqual(extra.log, ["upstream cancel"])
    }
}

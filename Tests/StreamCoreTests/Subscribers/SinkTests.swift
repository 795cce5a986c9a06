import StreamCore
import XCTest

/// How `Subscribers.Sink` holds its subscription: the one it keeps, the ones it refuses, and
/// when it lets go (Apple's Sink: requests `.unlimited` once, cancels extra subscriptions,
/// releases the subscription when it terminates).
final class SinkTests: XCTestCase {
    /// A subscription that logs what it is asked; a class, tracked with a weak reference.
    private final class LoggedSubscription: Subscription {
        let log: Log
        init(_ log: Log) { self.log = log }
        func request(_ demand: Subscribers.Demand) { log.events.append("request \(demand)") }
        func cancel() { log.events.append("cancel") }
    }

    /// The same as a value type: the sink must hold it as well as a class.
    private struct LoggedValueSubscription: Subscription {
        let log: Log
        let combineIdentifier = CombineIdentifier()
        func request(_ demand: Subscribers.Demand) { log.events.append("request \(demand)") }
        func cancel() { log.events.append("cancel") }
    }

    private final class Log {
        var events: [String] = []
    }

    private func makeSink() -> Subscribers.Sink<Int, Never> {
        Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    }

    /// Hands `sink` a new logged subscription, held only by the sink; returns a weak view of it.
    private func subscribeTracked(_ sink: Subscribers.Sink<Int, Never>, log: Log) -> () -> LoggedSubscription? {
        let subscription = LoggedSubscription(log)
        sink.receive(subscription: subscription)
        return { [weak subscription] in subscription }
    }

    func testKeepsTheFirstSubscriptionAndCancelsASecond() {
        let first = Log(), second = Log()
        let sink = makeSink()
        sink.receive(subscription: LoggedSubscription(first))
        sink.receive(subscription: LoggedSubscription(second))
        XCTAssertEqual(first.events, ["request unlimited"])
        XCTAssertEqual(second.events, ["cancel"])
        sink.cancel()
        XCTAssertEqual(first.events, ["request unlimited", "cancel"])
    }

    func testReleasesItsSubscriptionOnCompletionWithoutCancellingIt() {
        let log = Log()
        let sink = makeSink()
        let subscription = subscribeTracked(sink, log: log)
        XCTAssertNotNil(subscription(), "held while subscribed")
        sink.receive(completion: .finished)
        XCTAssertNil(subscription(), "released at completion")
        sink.cancel()
        XCTAssertEqual(log.events, ["request unlimited"], "a finished sink cancels nothing")
    }

    func testReleasesItsSubscriptionOnCancel() {
        let log = Log()
        let sink = makeSink()
        let subscription = subscribeTracked(sink, log: log)
        sink.cancel()
        XCTAssertNil(subscription())
        sink.cancel()
        XCTAssertEqual(log.events, ["request unlimited", "cancel"], "cancelled once")
    }

    func testCancelsASubscriptionThatArrivesAfterCancelOrCompletion() {
        for terminate in ["cancel", "completion"] {
            let log = Log()
            let sink = makeSink()
            if terminate == "cancel" { sink.cancel() } else { sink.receive(completion: .finished) }
            sink.receive(subscription: LoggedSubscription(log))
            XCTAssertEqual(log.events, ["cancel"], terminate)
        }
    }

    func testHoldsAValueTypeSubscription() {
        let log = Log()
        let sink = makeSink()
        sink.receive(subscription: LoggedValueSubscription(log: log))
        sink.cancel()
        XCTAssertEqual(log.events, ["request unlimited", "cancel"])
    }

    func testValuesStopAfterCancel() {
        var received: [Int] = []
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
        sink.receive(subscription: Subscriptions.empty)
        _ = sink.receive(1)
        sink.cancel()
        _ = sink.receive(2)
        XCTAssertEqual(received, [1])
    }
}

import StreamCore
import XCTest

final class AutoconnectTests: XCTestCase {
    /// A subscriber that subscribes another one from inside `receive(subscription:)`.
    private final class Reentrant: Subscriber {
        typealias Input = Int
        typealias Failure = Never
        let onSubscribe: (Subscription) -> Void
        init(onSubscribe: @escaping (Subscription) -> Void) { self.onSubscribe = onSubscribe }
        func receive(subscription: Subscription) { onSubscribe(subscription) }
        func receive(_ input: Int) -> Subscribers.Demand { .none }
        func receive(completion: Subscribers.Completion<Never>) {}
    }

    func testConnectsOnFirstSubscriberAndDisconnectsAfterTheLastCancel() {
        let upstream = TrackedSubject<Int, Never>()
        let autoconnect = upstream.makeConnectable().autoconnect()
        XCTAssertEqual(upstream.subscriptions, 0)

        let recorders = (0..<3).map { _ in Recorder<Int, Never>() }
        recorders.forEach(autoconnect.subscribe)
        XCTAssertEqual(upstream.subscriptions, 1, "one connection for every subscriber")
        upstream.send(1)
        XCTAssertEqual(recorders.map(\.values), [[1], [1], [1]])

        recorders[1].cancel()
        recorders[2].cancel()
        XCTAssertEqual(upstream.cancels, 0)
        upstream.send(2)
        XCTAssertEqual(recorders.map(\.values), [[1, 2], [1], [1]])

        recorders[0].cancel()
        XCTAssertEqual(upstream.cancels, 1, "the last cancel disconnects")
        recorders[0].cancel()
        XCTAssertEqual(upstream.cancels, 1)
    }

    func testCancellingOneSubscriptionTwiceCountsOnce() {
        let upstream = TrackedSubject<Int, Never>()
        let autoconnect = upstream.makeConnectable().autoconnect()
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        autoconnect.subscribe(first)
        autoconnect.subscribe(second)
        first.cancel()
        first.cancel()
        XCTAssertEqual(upstream.cancels, 0)
        upstream.send(5)
        XCTAssertEqual(second.values, [5])
        second.cancel()
        XCTAssertEqual(upstream.cancels, 1)
    }

    func testSubscribingAfterDisconnectConnectsAgain() {
        let upstream = TrackedSubject<Int, Never>()
        let autoconnect = upstream.makeConnectable().autoconnect()
        let first = Recorder<Int, Never>()
        autoconnect.subscribe(first)
        first.cancel()
        let second = Recorder<Int, Never>()
        autoconnect.subscribe(second)
        XCTAssertEqual(upstream.subscriptions, 2)
        upstream.send(3)
        XCTAssertEqual(second.values, [3])
        XCTAssertEqual(first.values, [])
        second.cancel()
    }

    func testSynchronousUpstreamReachesTheFirstSubscriber() {
        let recorder = Recorder<Int, Never>()
        [1, 2, 3].publisher.makeConnectable().autoconnect().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testDemandAndSubscriptionIdentityPassThrough() {
        let upstream = TrackedSubject<Int, Never>()
        let autoconnect = upstream.makeConnectable().autoconnect()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        autoconnect.subscribe(recorder)
        (1...4).forEach(upstream.send)
        XCTAssertEqual(recorder.values, [1, 2])
        recorder.request(.max(1))
        upstream.send(5)
        XCTAssertEqual(recorder.values, [1, 2, 5])
        XCTAssertEqual(String(describing: recorder.subscription!), "Multicast")
        recorder.cancel()
    }

    /// Apple connects a second time when a subscriber subscribes from inside its
    /// `receive(subscription:)` during the first connect, and then loses track of the first
    /// connection. We count the re-entrant subscriber on the connection in progress instead.
    func testReentrantSubscribeWhileConnectingSharesTheConnection() {
        let upstream = TrackedSubject<Int, Never>()
        let autoconnect = upstream.makeConnectable().autoconnect()
        let inner = Recorder<Int, Never>()
        var outerSubscription: Subscription?
        let outer = Reentrant { subscription in
            outerSubscription = subscription
            autoconnect.subscribe(inner)
        }
        autoconnect.subscribe(outer)
        XCTAssertEqual(upstream.subscriptions, 1)
        upstream.send(1)
        XCTAssertEqual(inner.values, [1])
        outerSubscription?.cancel()
        XCTAssertEqual(upstream.cancels, 0)
        inner.cancel()
        XCTAssertEqual(upstream.cancels, 1)
    }

    func testEverySubscriberLeavingWhileConnectingCancelsTheNewConnection() {
        let upstream = TrackedSubject<Int, Never>()
        let autoconnect = upstream.makeConnectable().autoconnect()
        autoconnect.subscribe(Reentrant { $0.cancel() })
        XCTAssertEqual(upstream.subscriptions, 1)
        XCTAssertEqual(upstream.cancels, 1, "the connection made after the last cancel is cancelled")
        let recorder = Recorder<Int, Never>()
        autoconnect.subscribe(recorder)
        XCTAssertEqual(upstream.subscriptions, 2)
        upstream.send(9)
        XCTAssertEqual(recorder.values, [9])
        recorder.cancel()
    }
}

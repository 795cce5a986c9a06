import StreamCore
import XCTest

final class ShareTests: XCTestCase {
    /// The book: "share to avoid repeated network requests" — N subscribers, one upstream
    /// subscription, and the upstream's work done once per value.
    func testManySubscribersCauseExactlyOneUpstreamSubscription() {
        let upstream = TrackedSubject<Int, Never>()
        var requestsMade = 0
        let shared = upstream.map { value -> Int in
            requestsMade += 1
            return value * 2
        }.share()
        let recorders = (0..<5).map { _ in Recorder<Int, Never>() }
        recorders.forEach(shared.subscribe)
        XCTAssertEqual(upstream.subscriptions, 1)
        XCTAssertEqual(upstream.requests, [.unlimited])
        upstream.send(1)
        upstream.send(2)
        XCTAssertEqual(requestsMade, 2)
        XCTAssertEqual(recorders.map(\.values), Array(repeating: [2, 4], count: 5))
        XCTAssertEqual(String(describing: recorders[0].subscription!), "Multicast")
        recorders.forEach { $0.cancel() }
    }

    func testLateSubscriberMissesEarlierValues() {
        let upstream = TrackedSubject<Int, Never>()
        let shared = upstream.share()
        let early = Recorder<Int, Never>()
        shared.subscribe(early)
        upstream.send(1)
        upstream.send(2)
        let late = Recorder<Int, Never>()
        shared.subscribe(late)
        upstream.send(3)
        XCTAssertEqual(early.values, [1, 2, 3])
        XCTAssertEqual(late.values, [3])
        XCTAssertEqual(upstream.subscriptions, 1)
        early.cancel()
        late.cancel()
    }

    func testEachSubscribersDemandIsHonouredSeparately() {
        let upstream = TrackedSubject<Int, Never>()
        let shared = upstream.share()
        let limited = Recorder<Int, Never>(initialDemand: .max(2))
        let unlimited = Recorder<Int, Never>()
        shared.subscribe(limited)
        shared.subscribe(unlimited)
        (1...4).forEach(upstream.send)
        XCTAssertEqual(limited.values, [1, 2])
        XCTAssertEqual(unlimited.values, [1, 2, 3, 4])
        XCTAssertEqual(upstream.requests, [.unlimited])
        limited.cancel()
        unlimited.cancel()
    }

    func testOnlyTheLastCancelCancelsUpstream() {
        let upstream = TrackedSubject<Int, Never>()
        let shared = upstream.share()
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        first.cancel()
        XCTAssertEqual(upstream.cancels, 0)
        upstream.send(1)
        XCTAssertEqual(second.values, [1])
        XCTAssertEqual(first.values, [])
        second.cancel()
        XCTAssertEqual(upstream.cancels, 1)
    }

    func testSubscriberAfterAllCancelledSubscribesUpstreamAgain() {
        let upstream = TrackedSubject<Int, Never>()
        let shared = upstream.share()
        let first = Recorder<Int, Never>()
        shared.subscribe(first)
        first.cancel()
        let second = Recorder<Int, Never>()
        shared.subscribe(second)
        XCTAssertEqual(upstream.subscriptions, 2)
        upstream.send(7)
        XCTAssertEqual(second.values, [7])
        second.cancel()
    }

    /// Apple/OpenCombine: once the upstream has completed, the shared subject has too, so a new
    /// subscriber gets the completion at once and the upstream is not subscribed again.
    func testSubscriberAfterCompletionGetsTheCompletionWithoutResubscribing() {
        let upstream = TrackedSubject<Int, TestError>()
        let shared = upstream.share()
        let first = Recorder<Int, TestError>()
        shared.subscribe(first)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(first.events, [.subscription, .value(1), .completion(.failure(.boom))])

        let late = Recorder<Int, TestError>(initialDemand: .none)
        shared.subscribe(late)
        XCTAssertEqual(late.events, [.subscription, .completion(.failure(.boom))])
        XCTAssertEqual(upstream.subscriptions, 1)
    }

    /// Without a delay or `makeConnectable()`, the first subscriber drains a synchronous
    /// upstream before the second one attaches (the book's caveat).
    func testSynchronousUpstreamIsDrainedByTheFirstSubscriber() {
        let shared = [1, 2, 3].publisher.share()
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        XCTAssertEqual(first.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        XCTAssertEqual(second.events, [.subscription, .completion(.finished)])
    }

    func testEquatableByIdentity() {
        let subject = PassthroughSubject<Int, Never>()
        let share1 = subject.share()
        let share2 = subject.share()
        XCTAssertEqual(share1, share1)
        XCTAssertNotEqual(share1, share2)
    }

    func testSinksReceiveSharedValuesAndCancellingReleasesThem() {
        let subject = PassthroughSubject<String, Never>()
        let shared = subject.share()
        var received: [String] = []
        var cancellables = Set<AnyCancellable>()
        shared.sink { received.append("a:" + $0) }.store(in: &cancellables)
        shared.sink { received.append("b:" + $0) }.store(in: &cancellables)
        subject.send("x")
        XCTAssertEqual(received.sorted(), ["a:x", "b:x"])
        cancellables.removeAll()
        subject.send("y")
        XCTAssertEqual(received.count, 2)
    }
}

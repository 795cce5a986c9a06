import StreamCore
import XCTest

final class MulticastTests: XCTestCase {
    func testNothingFlowsUntilConnect() {
        let upstream = TrackedSubject<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let recorder = Recorder<Int, Never>()
        multicast.subscribe(recorder)
        XCTAssertEqual(upstream.subscriptions, 0, "subscribers attach to the subject only")
        upstream.send(1)

        let connection = multicast.connect()
        XCTAssertEqual(upstream.subscriptions, 1)
        XCTAssertEqual(upstream.requests, [.unlimited], "the subject asks the upstream for everything")
        upstream.send(2)
        upstream.send(3)
        XCTAssertEqual(recorder.events, [.subscription, .value(2), .value(3)])
        XCTAssertEqual(String(describing: recorder.subscription!), "Multicast")
        connection.cancel()
    }

    func testEveryUpstreamValueIsProcessedOnceForAllSubscribers() {
        let subject = PassthroughSubject<Int, Never>()
        var transforms = 0
        let multicast = subject.map { value -> Int in
            transforms += 1
            return value * 10
        }.multicast(subject: PassthroughSubject())
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        multicast.subscribe(first)
        multicast.subscribe(second)
        let connection = multicast.connect()
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(transforms, 2)
        XCTAssertEqual(first.values, [10, 20])
        XCTAssertEqual(second.values, [10, 20])
        connection.cancel()
    }

    /// OpenCombine's testLateSubscriber: each subscriber's own demand is honoured, a late one
    /// misses earlier values, and one arriving after the completion gets only the completion.
    func testLateSubscribersAndPerSubscriberDemand() {
        let upstream = TrackedSubject<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject())
        let early = Recorder<Int, Never>(initialDemand: .max(3))
        multicast.subscribe(early)
        let connection = multicast.connect()
        (1...4).forEach(upstream.send)
        XCTAssertEqual(early.values, [1, 2, 3])

        let late = Recorder<Int, Never>(initialDemand: .max(2))
        multicast.subscribe(late)
        (5...7).forEach(upstream.send)
        XCTAssertEqual(early.values, [1, 2, 3])
        XCTAssertEqual(late.values, [5, 6])

        upstream.send(completion: .finished)
        let latest = Recorder<Int, Never>(initialDemand: .none)
        multicast.subscribe(latest)
        XCTAssertEqual(early.completions, [.finished])
        XCTAssertEqual(late.completions, [.finished])
        XCTAssertEqual(latest.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(upstream.requests, [.unlimited])
        connection.cancel()
    }

    func testDemandReturnedFromReceiveReachesTheSubject() {
        let subject = PassthroughSubject<Int, Never>()
        let multicast = subject.multicast(subject: PassthroughSubject())
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        multicast.subscribe(recorder)
        let connection = multicast.connect()
        (1...5).forEach(subject.send)
        XCTAssertEqual(recorder.values, [1, 2, 3, 4, 5])
        connection.cancel()
    }

    /// OpenCombine's testGenericMulticast: cancelling the connection cancels the upstream and
    /// leaves subscribers attached; connecting again resumes delivery.
    func testCancellingTheConnectionCancelsUpstreamAndReconnectResumes() {
        let upstream = TrackedSubject<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let recorder = Recorder<Int, Never>()
        multicast.subscribe(recorder)
        upstream.send(0)

        var connection = multicast.connect()
        upstream.send(-1)
        upstream.send(42)
        connection.cancel()
        XCTAssertEqual(upstream.cancels, 1)
        upstream.send(14)
        XCTAssertEqual(recorder.completions, [], "disconnecting doesn't complete the subscribers")

        connection = multicast.connect()
        XCTAssertEqual(upstream.subscriptions, 2)
        upstream.send(15)
        upstream.send(completion: .finished)
        connection.cancel()
        XCTAssertEqual(recorder.events, [.subscription, .value(-1), .value(42), .value(15), .completion(.finished)])
    }

    func testConnectingTwiceSubscribesUpstreamTwice() {
        let upstream = TrackedSubject<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject())
        let recorder = Recorder<Int, Never>(initialDemand: .max(10))
        multicast.subscribe(recorder)
        let first = multicast.connect()
        let second = multicast.connect()
        upstream.send(42)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(42), .value(42), .completion(.finished)])
        first.cancel()
        second.cancel()
    }

    func testCreatesTheSubjectOnceLazily() {
        var created = 0
        let multicast = PassthroughSubject<Int, Never>().multicast { () -> PassthroughSubject<Int, Never> in
            created += 1
            return PassthroughSubject()
        }
        XCTAssertEqual(created, 0)
        multicast.subscribe(Recorder<Int, Never>())
        multicast.subscribe(Recorder<Int, Never>())
        let connection = multicast.connect()
        XCTAssertEqual(created, 1)
        connection.cancel()
    }

    func testFailureReachesEverySubscriber() {
        let subject = PassthroughSubject<Int, TestError>()
        let multicast = subject.multicast(subject: PassthroughSubject())
        let first = Recorder<Int, TestError>()
        let second = Recorder<Int, TestError>()
        multicast.subscribe(first)
        multicast.subscribe(second)
        let connection = multicast.connect()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        subject.send(2)
        XCTAssertEqual(first.events, [.subscription, .value(1), .completion(.failure(.boom))])
        XCTAssertEqual(second.events, first.events)
        connection.cancel()
    }

    func testCurrentValueSubjectGivesItsValueBeforeConnect() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast(subject: CurrentValueSubject(7))
        let recorder = Recorder<Int, Never>()
        multicast.subscribe(recorder)
        XCTAssertEqual(recorder.values, [7])
        let connection = multicast.connect()
        upstream.send(8)
        XCTAssertEqual(recorder.values, [7, 8])
        connection.cancel()
    }

    func testCancelledSubscriberStopsReceivingAndIsReleased() {
        let subject = PassthroughSubject<Int, Never>()
        let multicast = subject.multicast(subject: PassthroughSubject())
        let connection = multicast.connect()
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            multicast.subscribe(recorder)
            subject.send(1)
            recorder.cancel()
            recorder.cancel()
            subject.send(2)
            XCTAssertEqual(recorder.values, [1])
            recorder.request(.max(5))
        }
        XCTAssertNil(weakRecorder)
        connection.cancel()
    }

    /// The book: "A multicast publisher does not cache or maintain the history of a value. …
    /// another subscriber … added after the data has been returned … may only get a completion."
    func testSubscriberJoiningAfterCompletionGetsOnlyTheCompletion() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject())
        let early = Recorder<Int, Never>()
        multicast.subscribe(early)
        let connection = multicast.connect()
        upstream.send(1)
        upstream.send(completion: .finished)
        let late = Recorder<Int, Never>()
        multicast.subscribe(late)
        XCTAssertEqual(early.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(late.events, [.subscription, .completion(.finished)])
        connection.cancel()
    }
}

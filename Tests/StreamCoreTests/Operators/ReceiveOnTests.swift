import Dispatch
import StreamCore
import XCTest

final class ReceiveOnTests: XCTestCase {
    func testDeliversOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let recorder = Recorder<Int, Never>()
        [1, 2, 3].publisher.receive(on: scheduler).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription], "subscription arrives at once, values wait")
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testKeepsTimingAndOrder() {
        assertMarbles(input: "a-b-(cd)|", expected: "a-b-(cd)|") { upstream, scheduler in
            upstream.receive(on: scheduler).eraseToAnyPublisher()
        }
    }

    func testDemandAndCancelPassThrough() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        upstream.receive(on: scheduler).subscribe(recorder)
        XCTAssertEqual(upstream.requests, [.max(1)])
        upstream.send(1)
        scheduler.advance()
        XCTAssertEqual(upstream.requests, [.max(1), .max(1)])
        upstream.send(2)
        recorder.cancel()
        scheduler.advance()
        XCTAssertEqual(recorder.values, [1], "nothing is delivered after cancel")
        XCTAssertTrue(upstream.cancelled)
    }

    /// The book: "Receive effects itself and any operators chained after it, but not previous
    /// operators." On the test scheduler: what comes before runs as the value is sent, what
    /// comes after only when the scheduler runs.
    func testOperatorsBeforeItRunAtOnceOperatorsAfterItOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let recorder = Recorder<Int, Never>()
        subject
            .map { value -> Int in log.append("before \(value)"); return value }
            .receive(on: scheduler)
            .map { value -> Int in log.append("after \(value)"); return value }
            .subscribe(recorder)
        subject.send(1)
        XCTAssertEqual(log, ["before 1"])
        XCTAssertEqual(recorder.values, [])
        scheduler.advance()
        XCTAssertEqual(log, ["before 1", "after 1"])
        XCTAssertEqual(recorder.values, [1])
    }
}

final class SubscribeOnTests: XCTestCase {
    func testSubscribesRequestsAndCancelsOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        upstream.subscribe(on: scheduler).subscribe(recorder)
        XCTAssertFalse(upstream.hasSubscriber, "subscribing waits for the scheduler")
        scheduler.advance()
        XCTAssertTrue(upstream.hasSubscriber)
        XCTAssertEqual(upstream.requests, [.max(2)])
        recorder.request(.max(3))
        XCTAssertEqual(upstream.requests, [.max(2)], "requests are scheduled too")
        scheduler.advance()
        XCTAssertEqual(upstream.requests, [.max(2), .max(3)])
        upstream.send(7)
        XCTAssertEqual(recorder.values, [7], "values pass through on the sender's thread")
        recorder.cancel()
        XCTAssertFalse(upstream.cancelled)
        scheduler.advance()
        XCTAssertTrue(upstream.cancelled)
    }

    func testWorksOnARealQueue() {
        let queue = DispatchQueue(label: "subscribe-on")
        let done = expectation(description: "finished")
        let values = TestLock()
        var received: [Int] = []
        let cancellable = [1, 2, 3].publisher.subscribe(on: queue).sink(
            receiveCompletion: { _ in done.fulfill() },
            receiveValue: { value in values.withLock { received.append(value) } }
        )
        wait(for: [done], timeout: 10)
        XCTAssertEqual(values.withLock { received }, [1, 2, 3])
        cancellable.cancel()
    }
}

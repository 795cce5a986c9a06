import Dispatch
import Foundation
import StreamCore
import XCTest

/// The real-clock schedulers and timers, with short real waits and generous timeouts.
final class RunLoopSchedulerTests: XCTestCase {
    func testStrideIsSecondsAndTimeIsDate() {
        let start = RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 100))
        XCTAssertEqual(start.advanced(by: .milliseconds(1_500)).date, Date(timeIntervalSince1970: 101.5))
        XCTAssertEqual(start.distance(to: start.advanced(by: 2)).timeInterval, 2)
        let half: RunLoop.SchedulerTimeType.Stride = 0.5
        XCTAssertEqual(half + .seconds(1), .seconds(1.5))
        XCTAssertEqual(OperationQueue.SchedulerTimeType.Stride.nanoseconds(1_000_000).timeInterval, 0.001, accuracy: 1e-12)
    }

    func testRunsActionsOnTheRunLoop() {
        let runLoop = RunLoop.current
        let now = expectation(description: "now")
        let later = expectation(description: "later")
        runLoop.schedule { now.fulfill() }
        runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(20))) { later.fulfill() }
        wait(for: [now, later], timeout: 10)
    }

    func testRepeatingActionStopsWhenCancelled() {
        let runLoop = RunLoop.current
        let ticks = expectation(description: "ticks")
        ticks.expectedFulfillmentCount = 3
        ticks.assertForOverFulfill = false
        let timer = runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(10)), interval: .milliseconds(10)) {
            ticks.fulfill()
        }
        wait(for: [ticks], timeout: 10)
        timer.cancel()
    }

    func testReceiveOnRunLoop() {
        let done = expectation(description: "done")
        var values: [Int] = []
        let cancellable = [1, 2].publisher.receive(on: RunLoop.current).sink(
            receiveCompletion: { _ in done.fulfill() },
            receiveValue: { values.append($0) }
        )
        wait(for: [done], timeout: 10)
        XCTAssertEqual(values, [1, 2])
        cancellable.cancel()
    }
}

final class OperationQueueSchedulerTests: XCTestCase {
    func testRunsActionsOnTheQueue() {
        let queue = OperationQueue()
        let now = expectation(description: "now")
        let later = expectation(description: "later")
        let ticks = expectation(description: "ticks")
        ticks.expectedFulfillmentCount = 2
        ticks.assertForOverFulfill = false
        queue.schedule { now.fulfill() }
        queue.schedule(after: queue.now.advanced(by: .milliseconds(20))) { later.fulfill() }
        let timer = queue.schedule(after: queue.now, interval: .milliseconds(10)) { ticks.fulfill() }
        wait(for: [now, later, ticks], timeout: 10)
        timer.cancel()
    }

    func testDelayOnOperationQueue() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let done = expectation(description: "done")
        let lock = TestLock()
        var values: [Int] = []
        let cancellable = [1, 2, 3].publisher.delay(for: .milliseconds(10), scheduler: queue).sink(
            receiveCompletion: { _ in done.fulfill() },
            receiveValue: { value in lock.withLock { values.append(value) } }
        )
        wait(for: [done], timeout: 10)
        XCTAssertEqual(lock.withLock { values }, [1, 2, 3])
        cancellable.cancel()
    }
}

final class TimerPublisherTests: XCTestCase {
    func testPublishesDatesOnceConnected() {
        let timer = Timer.publish(every: 0.01, on: .current, in: .default)
        let ticks = expectation(description: "ticks")
        ticks.expectedFulfillmentCount = 3
        ticks.assertForOverFulfill = false
        var dates: [Date] = []
        let cancellable = timer.sink { dates.append($0); ticks.fulfill() }
        XCTAssertEqual(timer.interval, 0.01)
        let connection = timer.connect()
        wait(for: [ticks], timeout: 10)
        connection.cancel()
        XCTAssertGreaterThanOrEqual(dates.count, 3)
        XCTAssertEqual(dates, dates.sorted())
        cancellable.cancel()
    }
}

final class SchedulerTimerTests: XCTestCase {
    func testTicksOnVirtualTimeOnceConnected() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let recorder = Recorder<DispatchQueue.SchedulerTimeType, Never>()
        timer.subscribe(recorder)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(recorder.values, [], "nothing before connect")
        let connection = timer.connect()
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(recorder.values.map { start.distance(to: $0) }, [.seconds(6), .seconds(7), .seconds(8)])
        connection.cancel()
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(recorder.values.count, 3)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testEachSubscriberGetsTicksByItsOwnDemand() {
        let scheduler = DispatchQueue.test
        let timer = Publishers.SchedulerTimer(every: .seconds(1), scheduler: scheduler)
        let greedy = Recorder<DispatchQueue.SchedulerTimeType, Never>()
        let frugal = Recorder<DispatchQueue.SchedulerTimeType, Never>(initialDemand: .max(1))
        timer.subscribe(greedy)
        timer.subscribe(frugal)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(greedy.values.count, 3)
        XCTAssertEqual(frugal.values.count, 1)
        frugal.cancel()
        greedy.cancel()
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(greedy.values.count, 3)
        connection.cancel()
    }

    func testDrivesATimeBasedPipeline() {
        let scheduler = DispatchQueue.test
        let timer = scheduler.timerPublisher(every: .milliseconds(100))
        var values: [Int] = []
        var count = 0
        let cancellable = timer
            .map { _ -> Int in count += 1; return count }
            .throttle(for: .milliseconds(250), scheduler: scheduler, latest: true)
            .sink { values.append($0) }
        let connection = timer.connect()
        scheduler.advance(by: .milliseconds(1_000))
        XCTAssertEqual(values, [1, 3, 5, 8])
        connection.cancel()
        cancellable.cancel()
    }
}

final class AnySchedulerTests: XCTestCase {
    /// The service pattern: production injects a dispatch queue, tests the test scheduler.
    private final class Search {
        var results: [String] = []
        private var cancellable: AnyCancellable?
        init(queries: PassthroughSubject<String, Never>, scheduler: AnySchedulerOf<DispatchQueue>) {
            cancellable = queries
                .debounce(for: .milliseconds(300), scheduler: scheduler)
                .sink { [unowned self] in self.results.append($0) }
        }
    }

    func testErasedTestSchedulerDrivesVirtualTime() {
        let scheduler = DispatchQueue.test
        let queries = PassthroughSubject<String, Never>()
        let search = Search(queries: queries, scheduler: scheduler.eraseToAnyScheduler())
        queries.send("s")
        queries.send("sw")
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(search.results, [])
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(search.results, ["sw"])
    }

    func testErasedSchedulerForwardsEverything() {
        let test = DispatchQueue.test
        let erased: AnySchedulerOf<DispatchQueue> = test.eraseToAnyScheduler()
        XCTAssertEqual(erased.now, test.now)
        XCTAssertEqual(erased.minimumTolerance, .zero)
        var log: [String] = []
        erased.schedule { log.append("now") }
        erased.schedule(after: erased.now.advanced(by: .seconds(1))) { log.append("later") }
        let repeating = erased.schedule(after: erased.now, interval: .seconds(1)) { log.append("tick") }
        test.advance(by: .seconds(1))
        repeating.cancel()
        XCTAssertEqual(log, ["now", "tick", "later", "tick"])
        XCTAssertEqual(erased.eraseToAnyScheduler().now, test.now)
    }

    func testErasedDispatchQueueRunsForReal() {
        let scheduler = DispatchQueue(label: "any-scheduler").eraseToAnyScheduler()
        let done = expectation(description: "ran")
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10))) { done.fulfill() }
        wait(for: [done], timeout: 10)
    }
}

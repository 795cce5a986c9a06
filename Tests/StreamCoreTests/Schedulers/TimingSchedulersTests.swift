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
    /// The book: the timer publisher "is a connectable publisher … it will not start producing
    /// values until connect() or autoconnect() is invoked", even with subscribers attached.
    func testNothingIsPublishedBeforeConnectAndAutoconnectStartsIt() {
        let timer = Timer.publish(every: 0.01, on: .current, in: .default)
        var dates: [Date] = []
        let unconnected = timer.sink { dates.append($0) }
        RunLoop.current.run(until: Date().addingTimeInterval(0.1))  // ten intervals
        XCTAssertEqual(dates, [], "ticks arrived without connect()")
        unconnected.cancel()

        let tick = expectation(description: "tick")
        tick.assertForOverFulfill = false
        let automatic = timer.autoconnect().sink { _ in tick.fulfill() }
        wait(for: [tick], timeout: 10)
        automatic.cancel()
    }

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

    /// Apple's first tick comes one interval after `connect()`, not at once; `connect()` from
    /// another thread puts the timer on the run loop it names, whose own thread runs it.
    func testFirstTickOneIntervalAfterConnectOnTheNamedRunLoopsThread() {
        let owner = RunLoopThread()
        let timer = Timer.publish(every: 0.2, on: owner.runLoop, in: .default)
        let firstTick = expectation(description: "first tick")
        firstTick.assertForOverFulfill = false
        nonisolated(unsafe) var ticks: [(date: Date, onOwner: Bool)] = []
        let cancellable = timer.sink { date in
            ticks.append((date, Thread.current == owner.thread))
            firstTick.fulfill()
        }
        let connectedAt = Date()
        let connection = timer.connect()  // from the test's thread
        wait(for: [firstTick], timeout: 10)
        connection.cancel()
        owner.stop()
        let first = ticks[0]
        XCTAssertGreaterThanOrEqual(first.date.timeIntervalSince(connectedAt), 0.19, "the first tick came before one interval had passed")
        XCTAssertTrue(first.onOwner, "the tick ran on another thread than the run loop's own")
        cancellable.cancel()
    }
}

/// A thread that owns a run loop and runs it until stopped.
private final class RunLoopThread: @unchecked Sendable {
    // Sendable: `runLoop` and `thread` are set before init returns (the semaphore orders them);
    // `stopped` is guarded by `lock`, and the thread holds this object until it ends.
    private(set) var runLoop: RunLoop!
    private(set) var thread: Thread!
    private let lock = NSLock()
    private var stopped = false

    init() {
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            runLoop = RunLoop.current
            ready.signal()
            while !lock.withLock({ stopped }) {
                // Returns at once while the run loop has no sources yet; don't spin the core.
                if !RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.05)) { usleep(1_000) }
            }
        }
        self.thread = thread
        thread.start()
        ready.wait()
    }

    func stop() { lock.withLock { stopped = true } }
}

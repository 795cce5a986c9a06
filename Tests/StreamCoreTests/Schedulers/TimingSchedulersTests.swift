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

    /// A block scheduled from another thread wakes a run loop that sleeps in `run(mode:before:)`
    /// (before: it ran only when the loop woke for something else, here after ten seconds).
    func testScheduleFromAnotherThreadWakesTheSleepingRunLoop() {
        let ready = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var sleeper: RunLoop!  // written before `ready` is signalled
        let thread = Thread {
            sleeper = RunLoop.current
            // A far timer, so the loop has a source and sleeps for the whole ten seconds.
            let keepAlive = Timer(fire: Date().addingTimeInterval(60), interval: 0, repeats: false) { _ in }
            sleeper.add(keepAlive, forMode: .default)
            ready.signal()
            _ = sleeper.run(mode: .default, before: Date().addingTimeInterval(10))
            keepAlive.invalidate()
        }
        thread.start()
        ready.wait()
        Thread.sleep(forTimeInterval: 0.05)  // let the loop fall asleep (the test holds either way)
        let ran = expectation(description: "ran on the sleeping loop")
        sleeper.schedule {
            XCTAssertTrue(Thread.current == thread)
            ran.fulfill()
        }
        wait(for: [ran], timeout: 5)
    }

    /// The book's MergeMany test, with short delays: six `Deferred { Future }` resolved on the main
    /// queue while the main thread waits in `wait(for:timeout:)`, collected into one array. The
    /// main queue is drained while XCTest waits (the book's failure was its own race: its last
    /// future resolves at the same ten seconds as its wait's timeout).
    func testMainQueueFuturesMergedAndCollectedWhileTheTestWaits() {
        let delays = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3]
        let publishers = delays.map { delay in
            Deferred {
                Future<Double, Never> { promise in
                    DispatchQueue.main.asyncAfter(deadline: .now() + delay) { promise(.success(delay)) }
                }
            }
        }
        let collected = expectation(description: "collected")
        var output: [Double] = []
        let cancellable = Publishers.MergeMany(publishers).collect().sink { values in
            XCTAssertTrue(Thread.isMainThread)
            output = values
            collected.fulfill()
        }
        wait(for: [collected], timeout: 10)
        XCTAssertEqual(output.sorted(), delays)
        cancellable.cancel()
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

    /// The book's test: a timer on the main run loop in `.common` mode, connected from another
    /// queue that lets the connection go at once, ticks while the main thread waits (Apple's
    /// connection is no `AnyCancellable`; ours was, so releasing it stopped the timer: 0 ticks).
    /// The released timer stays on the main run loop, ticking to no subscriber, as with Apple's.
    func testConnectionLetGoOnAnotherQueueKeepsTheMainRunLoopTimerTicking() {
        nonisolated(unsafe) let timer = Timer.publish(every: 0.2, on: .main, in: .common)
        let twoTicks = expectation(description: "two ticks")
        twoTicks.expectedFulfillmentCount = 2
        twoTicks.assertForOverFulfill = false
        let cancellable = timer.sink { _ in
            XCTAssertTrue(Thread.isMainThread)
            twoTicks.fulfill()
        }
        DispatchQueue(label: "connect").async { _ = timer.connect() }
        wait(for: [twoTicks], timeout: 10)
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

final class DispatchQueueSchedulerTests: XCTestCase {
    /// A one-shot action runs once, on the queue, and never before its deadline (whatever its
    /// tolerance); how late it may be is the tolerance, which the service's timer-lateness
    /// histogram measures under load (not a timed test).
    func testOneShotActionRunsOnceOnTheQueueNotBeforeItsDeadline() {
        let queue = DispatchQueue(label: "one-shot")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        for tolerance in [DispatchQueue.SchedulerTimeType.Stride.nanoseconds(0), .milliseconds(5)] {
            let ran = expectation(description: "ran")
            ran.assertForOverFulfill = true
            let deadline = queue.now.advanced(by: .milliseconds(20))
            queue.schedule(after: deadline, tolerance: tolerance) {
                XCTAssertEqual(DispatchQueue.getSpecific(key: key), 7)
                XCTAssertGreaterThanOrEqual(DispatchTime.now(), deadline.dispatchTime)
                ran.fulfill()
            }
            wait(for: [ran], timeout: 10)
        }
        XCTAssertEqual(queue.minimumTolerance, .nanoseconds(0))
    }

    /// An action scheduled for a time already past runs at once.
    func testPastDeadlineRunsAtOnce() {
        let queue = DispatchQueue(label: "past")
        let ran = expectation(description: "ran")
        queue.schedule(after: queue.now.advanced(by: .seconds(-1)), tolerance: .zero) { ran.fulfill() }
        wait(for: [ran], timeout: 10)
    }
}

import Dispatch
import StreamCore
import XCTest

@testable import HTTPServer
import WebSocketPublishers

/// `EventLoop.schedule(at:)` and `EventLoopScheduler` on a running loop: what runs, where, in
/// which order. Deadlines are only checked as lower bounds (a timer never runs early); how late
/// one runs is for the benchmarks.
final class EventLoopSchedulerTests: EventLoopTestCase {
    /// A loop whose deadline sweep comes only after an hour, so a timer that runs was woken for
    /// by its own deadline (the loop's wait times out at the earlier of the two).
    private func makeLoop(timerSlack: Duration = .zero) throws -> EventLoop {
        try makeLoop(label: "test.timers", sweep: .seconds(3600), timerSlack: timerSlack)
    }

    func testActionsRunOnTheLoopInDeadlineOrderAndNeverEarly() throws {
        try assertActionsRunInDeadlineOrderAndNeverEarly(on: makeLoop())
    }

    /// A loop's timer slack lets a timer fire late, never early, and keeps their order.
    func testWithTimerSlackActionsStillRunInDeadlineOrderAndNeverEarly() throws {
        try assertActionsRunInDeadlineOrderAndNeverEarly(on: makeLoop(timerSlack: .milliseconds(5)))
    }

    /// The slack is the loop thread's (the kernel's timer slack, which stretches its waits), and
    /// the scheduler reports it as its minimum tolerance; without one the thread's is 1 ns, not
    /// the kernel's default 50 µs.
    func testTheLoopThreadWaitsWithItsTimerSlack() throws {
        let precise = try makeLoop()
        XCTAssertEqual(precise.sync { Epoll.timerSlack }, 1)
        XCTAssertEqual(precise.scheduler.minimumTolerance, .nanoseconds(0))
        let coalescing = try makeLoop(timerSlack: .microseconds(500))
        XCTAssertEqual(coalescing.sync { Epoll.timerSlack }, 500_000)
        XCTAssertEqual(coalescing.scheduler.minimumTolerance, .microseconds(500))
        XCTAssertEqual(coalescing.timerSlack, .microseconds(500))
    }

    private func assertActionsRunInDeadlineOrderAndNeverEarly(on loop: EventLoop) {
        let scheduler = loop.scheduler
        let log = Log()
        let done = expectation(description: "the last timer ran")
        let start = scheduler.now
        for (name, milliseconds) in [("c", 30), ("a", 10), ("b", 20), ("a2", 10)] {
            let deadline = start.advanced(by: .milliseconds(milliseconds))
            scheduler.schedule(after: deadline) {
                log.append("\(name) on loop: \(loop.inLoop), early: \(scheduler.now < deadline)")
                if name == "c" { done.fulfill() }
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.entries, [
            "a on loop: true, early: false", "a2 on loop: true, early: false",
            "b on loop: true, early: false", "c on loop: true, early: false",
        ])
    }

    func testTimersScheduledFromTheLoopAndFromOtherThreadsBothRun() throws {
        let loop = try makeLoop()
        let log = Log()
        let done = expectation(description: "both ran")
        done.expectedFulfillmentCount = 2
        loop.schedule(at: .now() + .milliseconds(5)) { log.append("from the test thread"); done.fulfill() }
        loop.execute {
            loop.schedule(at: .now() + .milliseconds(1)) { log.append("from the loop"); done.fulfill() }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(Set(log.entries), ["from the test thread", "from the loop"])
    }

    func testACancelledTimerNeverRuns() throws {
        let loop = try makeLoop()
        let log = Log()
        let done = expectation(description: "the later timer ran")
        let cancelled = loop.schedule(at: .now() + .milliseconds(10)) { log.append("cancelled") }
        cancelled.cancel()
        loop.schedule(at: .now() + .milliseconds(30)) { log.append("later"); done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.entries, ["later"])
    }

    func testARepeatingTimerRunsUntilCancelled() throws {
        let loop = try makeLoop()
        let scheduler = loop.scheduler
        let log = Log()
        let three = expectation(description: "three runs")
        let cancellable = scheduler.schedule(after: scheduler.now, interval: .milliseconds(5)) {
            log.append("tick on loop: \(loop.inLoop)")
            if log.entries.count == 3 { three.fulfill() }
        }
        wait(for: [three], timeout: 10)
        // Cancelled on the loop, between two runs: no run after this one.
        nonisolated(unsafe) let repeating = cancellable  // only used inside `sync`, while this thread waits
        let runs = loop.sync { repeating.cancel(); return log.entries.count }
        let later = expectation(description: "four intervals later")
        loop.schedule(at: .now() + .milliseconds(20)) { later.fulfill() }
        wait(for: [later], timeout: 10)
        XCTAssertEqual(log.entries.count, runs)
        XCTAssertEqual(Set(log.entries), ["tick on loop: true"])
    }

    func testThrottleOnTheLoopEmitsTheFirstAndTheLatestValueOnTheLoop() throws {
        let loop = try makeLoop()
        let subject = PassthroughSubject<Int, Never>()
        let log = Log()
        let first = expectation(description: "the first value")
        let latest = expectation(description: "the window's latest value")
        // A window far longer than the two sends after the first value take.
        let cancellable = subject.throttle(for: .seconds(1), scheduler: loop.scheduler, latest: true)
            .sink { value in
                log.append("\(value) on loop: \(loop.inLoop)")
                if value == 1 { first.fulfill() }
                if value == 3 { latest.fulfill() }
            }
        subject.send(1)
        wait(for: [first], timeout: 10)
        subject.send(2)
        subject.send(3)
        wait(for: [latest], timeout: 10)
        XCTAssertEqual(log.entries, ["1 on loop: true", "3 on loop: true"])
        cancellable.cancel()
    }

    /// A stopped loop runs no timers, so it keeps none: what a pending or later timer's action
    /// holds is let go of (it would otherwise keep, through a session, the loop itself alive).
    func testAStoppedLoopLetsGoOfItsTimers() throws {
        final class Token: Sendable {}
        let loop = try makeLoop()
        weak var pending: Token?
        weak var late: Token?
        do {
            let token = Token()
            pending = token
            loop.schedule(at: .now() + .seconds(60)) { _ = token }
        }
        loop.sync {}
        XCTAssertNotNil(pending, "queued while the loop runs")
        loop.stop()
        XCTAssertNil(pending, "dropped when the loop's thread ended")
        do {
            let token = Token()
            late = token
            loop.schedule(at: .now() + .seconds(60)) { _ = token }
        }
        XCTAssertNil(late, "not queued after the end")
    }
}

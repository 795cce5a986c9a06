import HTTPTestSupport
import XCTest

@testable import HTTPServer

/// The loop's timer heap, fed deadlines and `now` in memory.
final class LoopTimerQueueTests: XCTestCase {
    private func add(_ queue: inout LoopTimerQueue, _ deadline: UInt64, _ name: String, to log: Log) -> LoopTimer {
        let timer = LoopTimer()
        queue.add(deadline: deadline, timer: timer) { log.append(name) }
        return timer
    }

    private func runDue(_ queue: inout LoopTimerQueue, now: UInt64) {
        while let action = queue.popDue(now: now) { action() }
    }

    func testDueTimersRunInDeadlineOrderAndEqualDeadlinesInTheOrderAdded() {
        var queue = LoopTimerQueue()
        let log = Log()
        _ = add(&queue, 30, "c", to: log)
        _ = add(&queue, 10, "a1", to: log)
        _ = add(&queue, 20, "b", to: log)
        _ = add(&queue, 10, "a2", to: log)
        _ = add(&queue, 40, "d", to: log)
        XCTAssertEqual(queue.nextDeadline, 10)
        runDue(&queue, now: 9)
        XCTAssertEqual(log.entries, [])
        runDue(&queue, now: 30)
        XCTAssertEqual(log.entries, ["a1", "a2", "b", "c"])
        XCTAssertEqual(queue.nextDeadline, 40)
        XCTAssertEqual(queue.count, 1)
    }

    func testACancelledTimerIsDroppedAtItsDeadlineWithoutRunning() {
        var queue = LoopTimerQueue()
        let log = Log()
        _ = add(&queue, 10, "a", to: log)
        let cancelled = add(&queue, 20, "cancelled", to: log)
        _ = add(&queue, 30, "c", to: log)
        cancelled.cancel()
        XCTAssertEqual(queue.count, 3, "kept until its deadline")
        runDue(&queue, now: 25)
        XCTAssertEqual(log.entries, ["a"])
        XCTAssertEqual(queue.count, 1)
        runDue(&queue, now: 30)
        XCTAssertEqual(log.entries, ["a", "c"])
        XCTAssertNil(queue.nextDeadline)
    }

    func testRandomDeadlinesComeOutSortedAndStable() {
        var generator = SeededGenerator(seed: 23)
        for round in 0..<50 {
            var queue = LoopTimerQueue()
            let log = Log()
            var expected: [(deadline: UInt64, index: Int)] = []
            for index in 0..<(1 + Int(generator.next() % 200)) {
                let deadline = generator.next() % 50
                _ = add(&queue, deadline, "\(index)", to: log)
                expected.append((deadline, index))
            }
            // Half of them due now, the rest later; both halves in (deadline, insertion) order.
            runDue(&queue, now: 24)
            runDue(&queue, now: 49)
            let sorted = expected.sorted { $0.deadline != $1.deadline ? $0.deadline < $1.deadline : $0.index < $1.index }
            XCTAssertEqual(log.entries, sorted.map { "\($0.index)" }, "round \(round)")
            XCTAssertEqual(queue.count, 0)
        }
    }
}

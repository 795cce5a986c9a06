import Dispatch
import StreamCore
import XCTest

final class TestSchedulerTests: XCTestCase {
    func testRunsActionsInTimeOrderOnlyWhenAdvanced() {
        let scheduler = DispatchQueue.test
        var log: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log.append("b") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("a") }
        scheduler.schedule { log.append("now") }
        XCTAssertEqual(log, [])
        scheduler.advance()
        XCTAssertEqual(log, ["now"])
        scheduler.advance(by: .milliseconds(1_500))
        XCTAssertEqual(log, ["now", "a"])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log, ["now", "a", "b"])
    }

    func testActionsScheduledWhileAdvancingRunIfDue() {
        let scheduler = DispatchQueue.test
        var log: [Int] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
            log.append(1)
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append(2) }
        }
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(log, [1, 2])
    }

    func testRepeatingActionUntilCancelled() {
        let scheduler = DispatchQueue.test
        var ticks = 0
        let timer = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) { ticks += 1 }
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(ticks, 3)
        timer.cancel()
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(ticks, 3)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testRunDrainsEverything() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var done = false
        scheduler.schedule(after: start.advanced(by: .seconds(30))) { done = true }
        scheduler.run()
        XCTAssertTrue(done)
        XCTAssertEqual(start.distance(to: scheduler.now), .seconds(30))
    }

    func testMarbleHarnessDrawsIdentity() {
        assertMarbles(input: "a-b-(cd)|", expected: "a-b-(cd)|") { upstream, _ in upstream }
        assertMarbles(input: "a-b#", expected: "A-B#") { upstream, _ in upstream.map { $0.uppercased() }.eraseToAnyPublisher() }
    }

    func testDispatchQueueSchedulerRunsAfterDeadline() {
        let queue = DispatchQueue(label: "test")
        let done = expectation(description: "ran")
        queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) { done.fulfill() }
        wait(for: [done], timeout: 5)
    }
}

import Dispatch
import XCTest

@testable import HTTPServer

/// Every transition of `EventLoopStateMachine`, in memory.
final class EventLoopStateMachineTests: XCTestCase {
    private let task: EventLoopStateMachine.Task = {}

    func testTasksQueuedBeforeStartWaitForTheThreadWithoutAWakeUp() {
        var machine = EventLoopStateMachine()
        XCTAssertEqual(machine.enqueue(task, onLoop: false), .none)
        XCTAssertTrue(machine.hasQueuedTasks)
        XCTAssertTrue(machine.start())
        var batch: [EventLoopStateMachine.Task] = []
        XCTAssertFalse(machine.takeTasks(swappingWith: &batch))
        XCTAssertEqual(batch.count, 1)
        XCTAssertFalse(machine.hasQueuedTasks)
    }

    func testStartingTwiceOrAfterStopIsRefused() {
        var machine = EventLoopStateMachine()
        XCTAssertTrue(machine.start())
        XCTAssertFalse(machine.start())
        var stopped = EventLoopStateMachine()
        guard case .drain = stopped.stop(onLoop: false, waiter: DispatchSemaphore(value: 0)) else { return XCTFail() }
        XCTAssertFalse(stopped.start())
    }

    func testOnlyTheFirstTaskFromAnotherThreadWakesTheLoopUntilItTakesThem() {
        var machine = running()
        XCTAssertEqual(machine.enqueue(task, onLoop: false), .wake)
        XCTAssertEqual(machine.enqueue(task, onLoop: false), .none)
        XCTAssertEqual(machine.enqueue(task, onLoop: true), .none)
        var batch: [EventLoopStateMachine.Task] = []
        XCTAssertFalse(machine.takeTasks(swappingWith: &batch))
        XCTAssertEqual(batch.count, 3)
        XCTAssertEqual(machine.enqueue(task, onLoop: false), .wake, "taking the tasks clears the pending wake-up")
    }

    func testTasksQueuedOnTheLoopNeverWakeIt() {
        var machine = running()
        XCTAssertFalse(machine.hasQueuedTasks)
        XCTAssertEqual(machine.enqueue(task, onLoop: true), .none)
        XCTAssertTrue(machine.hasQueuedTasks)
    }

    func testAStopFromAnotherThreadWakesTheLoopWhichRunsWhatWasQueuedThenEnds() {
        var machine = running()
        _ = machine.enqueue(task, onLoop: true)
        let waiter = DispatchSemaphore(value: 0)
        guard case .wait(wake: true) = machine.stop(onLoop: false, waiter: waiter) else { return XCTFail() }
        XCTAssertEqual(machine.enqueue(task, onLoop: false), .none, "the stop's wake-up is on its way")
        var batch: [EventLoopStateMachine.Task] = []
        XCTAssertTrue(machine.takeTasks(swappingWith: &batch), "the turn after a stop is the last")
        XCTAssertEqual(batch.count, 2)
        _ = machine.enqueue(task, onLoop: true)
        let (remaining, waiters) = machine.threadExited()
        XCTAssertEqual(remaining.count, 1, "queued during the last turn: run by the exiting thread")
        XCTAssertTrue(waiters.count == 1 && waiters[0] === waiter)
        XCTAssertNil(machine.nextStoppedTask())
    }

    func testAStopAfterAPendingWakeUpDoesNotSendAnother() {
        var machine = running()
        XCTAssertEqual(machine.enqueue(task, onLoop: false), .wake)
        guard case .wait(wake: false) = machine.stop(onLoop: false, waiter: DispatchSemaphore(value: 0)) else { return XCTFail() }
    }

    func testEveryStopperWaitsAndAStopOnTheLoopDoesNot() {
        var machine = running()
        guard case .none = machine.stop(onLoop: true, waiter: DispatchSemaphore(value: 0)) else { return XCTFail() }
        // No wake-up: the loop is not blocked (it asked to stop, and does not block again).
        guard case .wait(wake: false) = machine.stop(onLoop: false, waiter: DispatchSemaphore(value: 0)) else { return XCTFail() }
        guard case .wait(wake: false) = machine.stop(onLoop: false, waiter: DispatchSemaphore(value: 0)) else { return XCTFail() }
        guard case .none = machine.stop(onLoop: true, waiter: DispatchSemaphore(value: 0)) else { return XCTFail() }
        XCTAssertEqual(machine.threadExited().waiters.count, 2)
    }

    func testAfterTheThreadEndedTasksRunOnTheCallerOneDrainerAtATime() {
        var machine = stopped()
        XCTAssertEqual(machine.enqueue(task, onLoop: false), .runOnCaller)
        XCTAssertEqual(machine.enqueue(task, onLoop: false), .none, "another thread is draining: it runs this one")
        XCTAssertNotNil(machine.nextStoppedTask())
        XCTAssertNil(machine.nextStoppedTask())
        XCTAssertEqual(machine.enqueue(task, onLoop: false), .runOnCaller, "nobody drains any more")
        guard case .none = machine.stop(onLoop: false, waiter: DispatchSemaphore(value: 0)) else { return XCTFail() }
        var batch: [EventLoopStateMachine.Task] = []
        XCTAssertTrue(machine.takeTasks(swappingWith: &batch))
        XCTAssertTrue(batch.isEmpty)
    }

    func testStoppingALoopThatNeverStartedHandsItsTasksToTheCaller() {
        var machine = EventLoopStateMachine()
        _ = machine.enqueue(task, onLoop: false)
        _ = machine.enqueue(task, onLoop: false)
        guard case .drain(let queued) = machine.stop(onLoop: false, waiter: DispatchSemaphore(value: 0)) else { return XCTFail() }
        XCTAssertEqual(queued.count, 2)
        XCTAssertEqual(machine.enqueue(task, onLoop: false), .none, "the caller is draining")
        XCTAssertNotNil(machine.nextStoppedTask())
        XCTAssertNil(machine.nextStoppedTask())
    }

    func testThreadExitOutsideStoppingIsANoOp() {
        var machine = running()
        let (remaining, waiters) = machine.threadExited()
        XCTAssertTrue(remaining.isEmpty && waiters.isEmpty)
        guard case .running = machine.state else { return XCTFail() }
        XCTAssertNil(machine.nextStoppedTask())
    }

    private func running() -> EventLoopStateMachine {
        var machine = EventLoopStateMachine()
        _ = machine.start()
        return machine
    }

    private func stopped() -> EventLoopStateMachine {
        var machine = running()
        _ = machine.stop(onLoop: false, waiter: DispatchSemaphore(value: 0))
        _ = machine.threadExited()
        XCTAssertNil(machine.nextStoppedTask())
        return machine
    }
}

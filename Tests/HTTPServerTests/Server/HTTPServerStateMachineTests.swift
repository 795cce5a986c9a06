import XCTest

@testable import HTTPServer

/// Every transition of `HTTPServerStateMachine`, in memory, with strings standing in for the
/// set-up and what runs.
final class HTTPServerStateMachineTests: XCTestCase {
    private typealias Machine = HTTPServerStateMachine<String, String>
    private struct BindFailed: Error {}

    func testSetUpChangesOnlyBeforeStart() {
        var machine = Machine("routes")
        XCTAssertTrue(machine.configure { $0 += "+ws" })
        guard case .start(let running) = machine.start({ "running(\($0))" }) else { return XCTFail() }
        XCTAssertEqual(running, "running(routes+ws)")
        XCTAssertFalse(machine.configure { $0 += "+late" })
        XCTAssertEqual(machine.running, "running(routes+ws)")
        XCTAssertFalse(machine.isDraining)
    }

    func testAFailedStartLeavesTheServerInitialAndASecondStartAnswersWithWhatRuns() throws {
        var machine = Machine("routes")
        XCTAssertThrowsError(try machine.start { (_: String) throws(BindFailed) -> String in throw BindFailed() })
        guard case .initial = machine.state else { return XCTFail() }
        XCTAssertNil(machine.running)
        _ = machine.start { _ in "first" }
        guard case .alreadyRunning(let running) = machine.start({ _ in XCTFail("not built twice"); return "second" }) else {
            return XCTFail()
        }
        XCTAssertEqual(running, "first")
    }

    func testShutdownBeforeStartCompletesAtOnceAndChangesNothing() {
        var machine = Machine("routes")
        guard case .completeNow = machine.shutdown({}) else { return XCTFail() }
        guard case .initial = machine.state else { return XCTFail() }
        guard case .none = machine.drained() else { return XCTFail() }
        guard case .none = machine.drainDeadlinePassed() else { return XCTFail() }
    }

    func testShutdownDrainsOnceAndLaterCallsWaitForTheSameDrain() {
        var machine = running()
        guard case .beginDrain(let running) = machine.shutdown({}) else { return XCTFail() }
        XCTAssertEqual(running, "running")
        XCTAssertTrue(machine.isDraining)
        guard case .none = machine.shutdown({}) else { return XCTFail("a second shutdown joins the drain") }
        guard case .finish(let finished, let completions) = machine.drained() else { return XCTFail() }
        XCTAssertEqual(finished, "running")
        XCTAssertEqual(completions.count, 2)
        guard case .shutdown = machine.state else { return XCTFail() }
        XCTAssertTrue(machine.isDraining)
        XCTAssertEqual(machine.running, "running", "kept for the counters")
    }

    func testTheDrainFinishesOnceWhicheverComesFirst() {
        var machine = running()
        _ = machine.shutdown({})
        guard case .forceClose(let running) = machine.drainDeadlinePassed() else { return XCTFail() }
        XCTAssertEqual(running, "running")
        guard case .draining = machine.state else { return XCTFail("the deadline closes connections; their closing ends the drain") }
        guard case .finish = machine.drained() else { return XCTFail() }
        guard case .none = machine.drained() else { return XCTFail("finished once") }
        guard case .none = machine.drainDeadlinePassed() else { return XCTFail("a deadline after the drain is a no-op") }
    }

    func testAfterShutdownCompletionRunsAtOnceAndStartIsRefused() {
        var machine = running()
        _ = machine.shutdown({})
        guard case .refused = machine.start({ _ in "again" }) else { return XCTFail("not while draining") }
        _ = machine.drained()
        guard case .completeNow = machine.shutdown({}) else { return XCTFail() }
        guard case .refused = machine.start({ _ in "again" }) else { return XCTFail() }
    }

    func testDrainedWhileRunningIsANoOp() {
        var machine = running()
        guard case .none = machine.drained() else { return XCTFail() }
        guard case .none = machine.drainDeadlinePassed() else { return XCTFail() }
        guard case .running = machine.state else { return XCTFail() }
    }

    private func running() -> Machine {
        var machine = Machine("routes")
        _ = machine.start { _ in "running" }
        return machine
    }
}

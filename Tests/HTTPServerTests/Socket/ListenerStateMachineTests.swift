import XCTest

@testable import HTTPServer

/// Every transition of `ListenerStateMachine`, in memory, with a stand-in for the read source.
final class ListenerStateMachineTests: XCTestCase {
    private final class Source {}

    func testStartCreatesAndResumesTheSourceOnceAndNeverAfterStop() {
        var machine = ListenerStateMachine<Source>(maxConnections: 2)
        let source = Source()
        guard case .resume(let resumed) = machine.start({ source }) else { return XCTFail() }
        XCTAssertTrue(resumed === source)
        guard case .none = machine.start({ XCTFail("not made twice"); return Source() }) else { return XCTFail() }

        var stopped = ListenerStateMachine<Source>(maxConnections: 2)
        XCTAssertTrue(stopped.stop().drained, "stopped before it started: nothing open")
        guard case .none = stopped.start({ XCTFail("not made after stop"); return Source() }) else { return XCTFail() }
        guard case .stopped = stopped.state else { return XCTFail() }
    }

    func testAFailedAcceptPausesOnceAndThePauseEndingResumes() {
        var (machine, source) = accepting()
        guard case .pause(let paused) = machine.acceptFailed() else { return XCTFail() }
        XCTAssertTrue(paused === source)
        guard case .none = machine.acceptFailed() else { return XCTFail("already paused: no second pause or log") }
        XCTAssertFalse(machine.admit(), "nothing is admitted while paused")
        guard case .resume(let resumed) = machine.pauseEnded() else { return XCTFail() }
        XCTAssertTrue(resumed === source)
        guard case .none = machine.pauseEnded() else { return XCTFail("a second end of pause is a no-op") }
        guard case .accepting = machine.state else { return XCTFail() }
    }

    func testStopCancelsTheSourceResumingItFirstWhenPaused() {
        var (machine, source) = accepting()
        guard case (.cancel(let cancelled, resumeFirst: false), true) = machine.stop() else { return XCTFail() }
        XCTAssertTrue(cancelled === source)
        guard case (.none, false) = machine.stop() else { return XCTFail("a second stop is a no-op") }

        var (paused, _) = accepting()
        _ = paused.acceptFailed()
        guard case (.cancel(_, resumeFirst: true), true) = paused.stop() else { return XCTFail() }
        guard case .none = paused.pauseEnded() else { return XCTFail("the pause's end after stop is a no-op") }
        guard case .none = paused.acceptFailed() else { return XCTFail() }
    }

    func testTheLimitCountsOpenConnectionsAndAdmittedOnesAreCounted() {
        var (machine, _) = accepting(maxConnections: 2)
        XCTAssertTrue(machine.admit())
        XCTAssertTrue(machine.admit())
        XCTAssertFalse(machine.admit(), "over the limit")
        XCTAssertFalse(machine.connectionClosed())
        XCTAssertTrue(machine.admit(), "a closed connection frees its place")
        XCTAssertEqual(machine.open, 2)
        XCTAssertEqual(machine.admitted, 3)
    }

    func testTheLastConnectionOfAStoppedListenerReportsTheDrainOnce() {
        var (machine, _) = accepting()
        XCTAssertTrue(machine.admit())
        XCTAssertTrue(machine.admit())
        XCTAssertFalse(machine.stop().drained, "connections are open")
        XCTAssertFalse(machine.admit(), "nothing is admitted after stop")
        XCTAssertFalse(machine.connectionClosed())
        XCTAssertTrue(machine.connectionClosed())
        XCTAssertEqual(machine.open, 0)
        XCTAssertEqual(machine.admitted, 2)
    }

    private func accepting(maxConnections: Int = 10) -> (ListenerStateMachine<Source>, Source) {
        var machine = ListenerStateMachine<Source>(maxConnections: maxConnections)
        let source = Source()
        _ = machine.start { source }
        return (machine, source)
    }
}

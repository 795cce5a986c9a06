@testable import HTTPServer
import XCTest

/// `ConnectionStateMachine` fed in memory: every transition, without a socket.
final class ConnectionStateMachineTests: XCTestCase {
    func testANewConnectionReadsAndWatchesForInput() {
        let machine = ConnectionStateMachine()
        XCTAssertEqual(machine.state, .reading)
        XCTAssertTrue(machine.readsInput)
        XCTAssertTrue(machine.acceptsOutput)
        XCTAssertEqual(machine.interest(hasPendingOutput: false), .readable)
        XCTAssertEqual(machine.interest(hasPendingOutput: true), [.readable, .writable])
    }

    func testPausingWatchesOnlyForTheHangUpAndResumingReadsAgain() {
        var machine = ConnectionStateMachine()
        XCTAssertTrue(machine.pauseReading())
        XCTAssertFalse(machine.pauseReading(), "pausing twice changes nothing")
        XCTAssertEqual(machine.state, .paused(.open))
        XCTAssertFalse(machine.readsInput)
        XCTAssertTrue(machine.acceptsOutput)
        XCTAssertEqual(machine.interest(hasPendingOutput: false), .peerHangUp)
        XCTAssertTrue(machine.resumeReading())
        XCTAssertFalse(machine.resumeReading(), "resuming twice changes nothing")
        XCTAssertEqual(machine.state, .reading)
    }

    func testAHangUpIsReportedOnceAndOnlyWhileNotReading() {
        var machine = ConnectionStateMachine()
        XCTAssertFalse(machine.peerHungUp(), "a reader meets the end of input instead")
        _ = machine.pauseReading()
        XCTAssertTrue(machine.peerHungUp())
        XCTAssertEqual(machine.state, .paused(.hungUp))
        XCTAssertFalse(machine.peerHungUp(), "level-triggered: told once")
        XCTAssertEqual(machine.interest(hasPendingOutput: false), [], "no longer watched")
        XCTAssertEqual(machine.interest(hasPendingOutput: true), .writable)
        XCTAssertTrue(machine.resumeReading(), "reading resumes and meets the end of input")
        XCTAssertEqual(machine.interest(hasPendingOutput: false), .readable)
    }

    func testCloseAfterFlushWithNothingPendingClosesNow() {
        var machine = ConnectionStateMachine()
        XCTAssertEqual(machine.closeAfterFlush(hasPendingOutput: false), .closeNow)
        _ = machine.pauseReading()
        XCTAssertEqual(machine.closeAfterFlush(hasPendingOutput: false), .closeNow)
    }

    func testCloseAfterFlushStopsReadingAndWritingAndClosesWhenFlushed() {
        var machine = ConnectionStateMachine()
        XCTAssertEqual(machine.closeAfterFlush(hasPendingOutput: true), .waitForFlush)
        XCTAssertEqual(machine.state, .closingAfterFlush(.open))
        XCTAssertFalse(machine.readsInput)
        XCTAssertFalse(machine.acceptsOutput)
        XCTAssertEqual(machine.interest(hasPendingOutput: true), [.peerHangUp, .writable])
        XCTAssertEqual(machine.closeAfterFlush(hasPendingOutput: true), .none, "asked twice")
        XCTAssertFalse(machine.resumeReading(), "a closing connection does not read again")
        XCTAssertFalse(machine.pauseReading())
        XCTAssertEqual(machine.outputFlushed(), .close)
        XCTAssertTrue(machine.close())
        XCTAssertEqual(machine.state, .closed)
    }

    func testAHangUpWhileFlushingIsReportedOnce() {
        var machine = ConnectionStateMachine()
        _ = machine.pauseReading()
        XCTAssertTrue(machine.peerHungUp())
        XCTAssertEqual(machine.closeAfterFlush(hasPendingOutput: true), .waitForFlush)
        XCTAssertEqual(machine.state, .closingAfterFlush(.hungUp), "the report is remembered")
        XCTAssertFalse(machine.peerHungUp())

        var other = ConnectionStateMachine()
        _ = other.closeAfterFlush(hasPendingOutput: true)
        XCTAssertTrue(other.peerHungUp())
        XCTAssertEqual(other.interest(hasPendingOutput: true), .writable)
    }

    func testFlushedOutputIsReportedToTheHandlerWhileOpen() {
        var machine = ConnectionStateMachine()
        XCTAssertEqual(machine.outputFlushed(), .notifyDrained)
        _ = machine.pauseReading()
        XCTAssertEqual(machine.outputFlushed(), .notifyDrained)
    }

    func testAClosedConnectionIgnoresEverything() {
        var machine = ConnectionStateMachine()
        XCTAssertTrue(machine.close())
        XCTAssertFalse(machine.close(), "torn down once")
        XCTAssertTrue(machine.isClosed)
        XCTAssertFalse(machine.readsInput)
        XCTAssertFalse(machine.acceptsOutput)
        XCTAssertFalse(machine.pauseReading())
        XCTAssertFalse(machine.resumeReading())
        XCTAssertFalse(machine.peerHungUp())
        XCTAssertEqual(machine.closeAfterFlush(hasPendingOutput: true), .none)
        XCTAssertEqual(machine.outputFlushed(), .none)
        XCTAssertEqual(machine.interest(hasPendingOutput: true), [])
    }
}

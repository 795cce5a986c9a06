@testable import HTTPServer
import XCTest

/// `HTTPConnectionStateMachine` fed in memory: every transition, including orders a real socket
/// cannot be made to produce on cue.
final class HTTPConnectionStateMachineTests: XCTestCase {
    typealias Machine = HTTPConnectionStateMachine

    /// A machine answering a request.
    private func responding() -> Machine {
        var machine = Machine()
        XCTAssertTrue(machine.requestReceived())
        return machine
    }

    func testANewConnectionWaitsForARequestUnderTheIdleTimeout() {
        let machine = Machine()
        XCTAssertEqual(machine.state, .idle(.open))
        XCTAssertEqual(machine.initialTimer, .idle)
        XCTAssertTrue(machine.acceptsRequests)
    }

    func testTheFirstBytesOfARequestArmTheReadTimeoutOnce() {
        var machine = Machine()
        XCTAssertEqual(machine.awaitingRequest(partialRequest: false), .none, "nothing arrived")
        XCTAssertEqual(machine.state, .idle(.open))
        XCTAssertEqual(machine.awaitingRequest(partialRequest: true), .armTimer(.requestRead))
        XCTAssertEqual(machine.state, .readingRequest)
        XCTAssertEqual(machine.awaitingRequest(partialRequest: true), .none, "not re-armed by later bytes")
        XCTAssertTrue(machine.acceptsRequests)
    }

    func testACompleteRequestIsAnsweredAndNoOtherStartsMeanwhile() {
        var machine = Machine()
        _ = machine.awaitingRequest(partialRequest: true)
        XCTAssertTrue(machine.requestReceived())
        XCTAssertEqual(machine.state, .responding(.open))
        XCTAssertFalse(machine.acceptsRequests)
        XCTAssertFalse(machine.requestReceived(), "one request at a time")
        XCTAssertEqual(machine.awaitingRequest(partialRequest: true), .none)
        XCTAssertFalse(machine.parseFailed(), "pipelined bytes are not parsed meanwhile")
    }

    func testKeepAliveReadsTheNextRequestAndCloseClosesAfterTheResponse() {
        var machine = responding()
        XCTAssertEqual(machine.responseComplete(keepAlive: true), .readNextRequest(armTimer: .idle))
        XCTAssertEqual(machine.state, .idle(.open))
        XCTAssertTrue(machine.requestReceived())
        XCTAssertEqual(machine.responseComplete(keepAlive: false), .closeAfterFlush(armTimer: .idle))
        XCTAssertEqual(machine.state, .closing)
        XCTAssertFalse(machine.acceptsRequests, "requests pipelined behind Connection: close are ignored")
        XCTAssertEqual(machine.responseComplete(keepAlive: true), .none)
    }

    func testTimersByState() {
        var idle = Machine()
        XCTAssertEqual(idle.timerFired(), .close, "idle timeout")

        var reading = Machine()
        _ = reading.awaitingRequest(partialRequest: true)
        XCTAssertEqual(reading.timerFired(), .respondRequestTimeout(armTimer: .idle))
        XCTAssertEqual(reading.state, .closing)
        XCTAssertEqual(reading.timerFired(), .close, "the client did not take the 408 in time")

        var answering = responding()
        XCTAssertEqual(answering.timerFired(), .none, "a running handler is not timed out")
        XCTAssertEqual(answering.state, .responding(.open))
    }

    func testAStreamedBodyIsTimedOnlyWhileItWaitsForTheClient() {
        var machine = responding()
        machine.streamingStarted()
        XCTAssertEqual(machine.state, .streaming(.open, .flowing))
        XCTAssertEqual(machine.timerFired(), .none)
        XCTAssertEqual(machine.outputDrained(), .notifyBodyWriter)
        XCTAssertEqual(machine.bodyStalled(), .idle)
        XCTAssertNil(machine.bodyStalled(), "already armed")
        XCTAssertEqual(machine.outputDrained(), .cancelTimerAndNotifyBodyWriter)
        XCTAssertEqual(machine.state, .streaming(.open, .flowing))
        _ = machine.bodyStalled()
        XCTAssertEqual(machine.timerFired(), .close, "a client that stopped reading is cut off")
        XCTAssertEqual(machine.responseComplete(keepAlive: true), .readNextRequest(armTimer: .idle))
        XCTAssertEqual(machine.outputDrained(), .none)
    }

    func testAHalfCloseBetweenRequestsClosesAfterTheLastResponse() {
        var idle = Machine()
        XCTAssertEqual(idle.endOfInput(), .closeAfterFlush(armTimer: .idle))
        XCTAssertEqual(idle.state, .closing)

        var reading = Machine()
        _ = reading.awaitingRequest(partialRequest: true)
        XCTAssertEqual(reading.endOfInput(), .closeAfterFlush(armTimer: .idle), "a partial request is dropped")
    }

    func testAHalfCloseWhileAHandlerRunsIsAnsweredThenClosed() {
        var machine = responding()
        XCTAssertEqual(machine.endOfInput(), .pauseReading)
        XCTAssertEqual(machine.state, .responding(.ended))
        XCTAssertFalse(machine.handlerReturned(), "reading does not resume")
        XCTAssertEqual(machine.responseComplete(keepAlive: true), .readNextRequest(armTimer: .idle))
        XCTAssertEqual(machine.state, .idle(.ended), "requests read before the end are still answered")
        XCTAssertTrue(machine.requestReceived())
        XCTAssertEqual(machine.state, .responding(.ended))
        _ = machine.responseComplete(keepAlive: true)
        XCTAssertEqual(machine.awaitingRequest(partialRequest: true), .closeAfterFlush(armTimer: .idle))
        XCTAssertEqual(machine.state, .closing)
    }

    func testAHalfCloseWhileABodyStreamsKeepsItsTimer() {
        var machine = responding()
        machine.streamingStarted()
        _ = machine.bodyStalled()
        XCTAssertEqual(machine.endOfInput(), .pauseReading)
        XCTAssertEqual(machine.state, .streaming(.ended, .stalled))
        XCTAssertFalse(machine.handlerReturned())
    }

    func testPeerCloseWhileAHandlerRunsCancelsIt() {
        var machine = responding()
        XCTAssertTrue(machine.handlerReturned(), "open input: reading resumes after the handler")
        XCTAssertTrue(machine.peerHungUp(), "the handler is told to stop")
        XCTAssertTrue(machine.connectionClosed(), "a handler may still run: cancel it")
        XCTAssertEqual(machine.state, .closed)
        XCTAssertFalse(machine.handlerReturned(), "nothing to resume on a closed connection")
        XCTAssertEqual(machine.responseComplete(keepAlive: true), .none, "a late answer goes nowhere")
        XCTAssertEqual(machine.timerFired(), .none)
        XCTAssertEqual(machine.endOfInput(), .none)
    }

    func testAHangUpBetweenRequestsCancelsNothing() {
        var machine = Machine()
        XCTAssertFalse(machine.peerHungUp())
        XCTAssertFalse(machine.connectionClosed())
    }

    func testParseErrorsCloseAfterTheErrorResponse() {
        var machine = Machine()
        _ = machine.awaitingRequest(partialRequest: true)
        XCTAssertTrue(machine.parseFailed())
        XCTAssertEqual(machine.state, .closing)
        XCTAssertFalse(machine.parseFailed(), "answered once")
    }

    func testGracefulShutdownClosesOnlyIdleConnections() {
        var idle = Machine()
        XCTAssertTrue(idle.closeIfIdle())
        XCTAssertEqual(idle.state, .closing)
        XCTAssertTrue(idle.closeIfIdle(), "asking again is harmless")

        var reading = Machine()
        _ = reading.awaitingRequest(partialRequest: true)
        XCTAssertFalse(reading.closeIfIdle(), "a request on its way is answered first")

        var answering = responding()
        XCTAssertFalse(answering.closeIfIdle())
        XCTAssertEqual(answering.responseComplete(keepAlive: false), .closeAfterFlush(armTimer: .idle))
    }

    func testAnUpgradedConnectionIgnoresHTTPEvents() {
        var machine = responding()
        machine.upgraded()
        XCTAssertEqual(machine.state, .upgraded)
        XCTAssertFalse(machine.acceptsRequests)
        XCTAssertEqual(machine.timerFired(), .none)
        XCTAssertEqual(machine.endOfInput(), .none)
        XCTAssertFalse(machine.closeIfIdle(), "the WebSocket handler closes it with 1001")
        XCTAssertFalse(machine.connectionClosed())
    }
}

@testable import HTTPServer
import XCTest

/// `WebSocketStateMachine` fed in memory: the keepalive, the closing handshake from either
/// side, failures, and orders a real socket cannot be made to produce on cue.
final class WebSocketStateMachineTests: XCTestCase {
    typealias Machine = WebSocketStateMachine

    private let timing = Machine.Timing(pingInterval: .seconds(30), idleTimeout: .seconds(75), closeTimeout: .seconds(5))

    func testTimingFromTheConfigurationTurnsZeroIntoOff() {
        var configuration = WebSocketConfiguration(pingInterval: .zero, idleTimeout: .milliseconds(500), closeTimeout: .seconds(2))
        XCTAssertEqual(Machine.Timing(configuration), .init(pingInterval: nil, idleTimeout: .milliseconds(500), closeTimeout: .seconds(2)))
        configuration.idleTimeout = .zero
        configuration.pingInterval = .seconds(1)
        XCTAssertEqual(Machine.Timing(configuration), .init(pingInterval: .seconds(1), idleTimeout: nil, closeTimeout: .seconds(2)))
        configuration = WebSocketConfiguration(pingInterval: .seconds(-1), idleTimeout: .seconds(-1), closeTimeout: .seconds(-3))
        XCTAssertEqual(Machine.Timing(configuration), .init(pingInterval: nil, idleTimeout: nil, closeTimeout: .zero), "negative: off, or at once")
    }

    func testAnOpenConnectionPingsAfterSilenceAndClosesWithoutAnAnswer() {
        var machine = Machine(timing: timing)
        XCTAssertEqual(machine.initialTimer, .arm(.seconds(30)))
        XCTAssertTrue(machine.isOpen)
        XCTAssertTrue(machine.readsFrames)
        XCTAssertEqual(machine.timerFired(readingPaused: false), .sendPing(then: .arm(.seconds(45))))
        XCTAssertEqual(machine.state, .open(.pingSent))
        XCTAssertEqual(machine.timerFired(readingPaused: false), .closeConnection)
    }

    func testAnyFrameAnswersThePing() {
        var machine = Machine(timing: timing)
        _ = machine.timerFired(readingPaused: false)
        XCTAssertEqual(machine.bytesRead(), .arm(.seconds(30)))
        XCTAssertEqual(machine.state, .open(.listening))
        XCTAssertEqual(machine.timerFired(readingPaused: false), .sendPing(then: .arm(.seconds(45))))
    }

    func testTheGraceAfterAPingHasAFloorAndNoIdleTimeoutMeansNoGraceTimer() {
        var tight = Machine(timing: .init(pingInterval: .seconds(1), idleTimeout: .seconds(1), closeTimeout: .seconds(1)))
        XCTAssertEqual(tight.timerFired(readingPaused: false), .sendPing(then: .arm(.milliseconds(50))))
        var patient = Machine(timing: .init(pingInterval: .seconds(1), idleTimeout: nil, closeTimeout: .seconds(1)))
        XCTAssertEqual(patient.timerFired(readingPaused: false), .sendPing(then: .disarm))
    }

    func testWithoutPingsSilenceClosesAfterTheIdleTimeoutOrNever() {
        var idle = Machine(timing: .init(pingInterval: nil, idleTimeout: .seconds(2), closeTimeout: .seconds(1)))
        XCTAssertEqual(idle.initialTimer, .arm(.seconds(2)))
        XCTAssertEqual(idle.bytesRead(), .arm(.seconds(2)))
        XCTAssertEqual(idle.timerFired(readingPaused: false), .closeConnection)
        var never = Machine(timing: .init(pingInterval: nil, idleTimeout: nil, closeTimeout: .seconds(1)))
        XCTAssertEqual(never.initialTimer, .disarm)
        XCTAssertEqual(never.bytesRead(), .disarm)
    }

    func testPingTimeoutWhileReadingIsPausedWaitsForTheApplication() {
        var machine = Machine(timing: timing)
        XCTAssertEqual(machine.timerFired(readingPaused: true), .rearm(.arm(.seconds(30))), "no ping: its pong could not be read")
        XCTAssertEqual(machine.state, .open(.listening))
        _ = machine.timerFired(readingPaused: false)
        XCTAssertEqual(machine.timerFired(readingPaused: true), .rearm(.arm(.seconds(30))), "the pong may be waiting unread")
        XCTAssertEqual(machine.state, .open(.pingSent))
        XCTAssertEqual(machine.timerFired(readingPaused: false), .closeConnection)
    }

    func testTheServerClosesAndWaitsForThePeersClose() {
        var machine = Machine(timing: timing)
        XCTAssertEqual(machine.closeRequested(code: .goingAway), .sendClose(.goingAway, then: .arm(.seconds(5))))
        XCTAssertFalse(machine.isOpen, "no more data")
        XCTAssertTrue(machine.readsFrames, "the peer's close is still to come")
        XCTAssertEqual(machine.closeRequested(code: .normalClosure), .none, "one close frame")
        XCTAssertNil(machine.bytesRead(), "the close timeout keeps running")
        XCTAssertFalse(machine.pingReceived(), "no pong once closing")
        XCTAssertEqual(machine.closeReceived(code: .normalClosure), .closeAfterFlush)
        XCTAssertFalse(machine.readsFrames)
        XCTAssertEqual(machine.closeReceived(code: .normalClosure), .none)
    }

    func testThePeerThatDoesNotAnswerOurCloseIsCutOff() {
        var machine = Machine(timing: timing)
        _ = machine.closeRequested(code: .normalClosure)
        XCTAssertEqual(machine.timerFired(readingPaused: true), .closeConnection)
    }

    func testThePeersCloseIsEchoedThenTheServerCloses() {
        var machine = Machine(timing: timing)
        XCTAssertTrue(machine.pingReceived())
        XCTAssertEqual(machine.closeReceived(code: .init(rawValue: 4000)), .sendCloseThenCloseAfterFlush(.init(rawValue: 4000)))
        XCTAssertEqual(machine.closeRequested(code: .normalClosure), .none, "the application's close comes too late")
        XCTAssertEqual(machine.failed(.protocolError("late")), .none)
        XCTAssertEqual(machine.timerFired(readingPaused: false), .closeConnection, "the flush took too long")
    }

    func testAProtocolErrorFailsTheConnectionWithItsCode() {
        var machine = Machine(timing: timing)
        let error = WebSocketError.invalidPayload("bad UTF-8")
        XCTAssertEqual(machine.failed(error), .sendCloseThenCloseAfterFlush(error.closeCode))
        XCTAssertFalse(machine.readsFrames)
        XCTAssertFalse(machine.isOpen)
    }

    func testAFailureAfterOurCloseSendsNoSecondCloseFrame() {
        var machine = Machine(timing: timing)
        _ = machine.closeRequested(code: .normalClosure)
        XCTAssertEqual(machine.failed(.protocolError("bad frame")), .closeAfterFlush)
    }

    func testTheConnectionClosingEndsEverything() {
        var machine = Machine(timing: timing)
        machine.connectionClosed()
        XCTAssertTrue(machine.isClosed)
        XCTAssertFalse(machine.readsFrames)
        XCTAssertNil(machine.bytesRead())
        XCTAssertEqual(machine.closeRequested(code: .normalClosure), .none)
        XCTAssertEqual(machine.closeReceived(code: .normalClosure), .none)
        XCTAssertEqual(machine.timerFired(readingPaused: false), .closeConnection)
    }
}

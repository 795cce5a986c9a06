@testable import HTTPServer
import StreamCore
import XCTest

/// `WebSocketInboundStateMachine` fed in memory: queueing, demand, delivery, completion, and
/// orders a real socket cannot be made to produce on cue (close or cancel during delivery).
final class WebSocketInboundStateMachineTests: XCTestCase {
    typealias Machine = WebSocketInboundStateMachine<String>

    /// What `nextStep` answered, comparable.
    private enum Step: Equatable {
        case deliver(String, WebSocketSession.Message)
        case decode
        case complete(String?)
        case idle
    }

    private func next(
        _ machine: inout Machine, input: Machine.Input = .open, readsFrames: Bool = true
    ) -> Step {
        switch machine.nextStep(input: input, readsFrames: readsFrames) {
        case .deliver(let receiver, let message): .deliver(receiver, message)
        case .decode: .decode
        case .complete(let receiver): .complete(receiver)
        case .idle: .idle
        }
    }

    private func text(_ value: String) -> WebSocketSession.Message { .text(value) }

    func testBytesMakeTheReaderWorthAskingUntilItNeedsMore() {
        var machine = Machine(limit: 2)
        XCTAssertEqual(next(&machine), .idle)
        machine.bytesArrived()
        XCTAssertEqual(next(&machine), .decode)
        XCTAssertEqual(next(&machine, readsFrames: false), .idle, "not after the protocol stopped reading")
        machine.readerNeedsBytes()
        XCTAssertEqual(next(&machine), .idle)
    }

    func testMessagesQueueUntilTheLimitThenDecodingStops() {
        var machine = Machine(limit: 2)
        machine.bytesArrived()
        machine.received(text("a"), input: .open)
        XCTAssertFalse(machine.isFull)
        machine.received(text("bc"), input: .open)
        XCTAssertTrue(machine.isFull, "reading pauses")
        XCTAssertEqual(machine.queuedCount, 2)
        XCTAssertEqual(machine.queuedBytes, 3)
        XCTAssertEqual(next(&machine), .idle, "no room, no subscriber")
    }

    func testDemandDeliversInOrderAndMakesRoom() {
        var machine = Machine(limit: 2)
        machine.received(text("a"), input: .open)
        machine.received(text("b"), input: .open)
        XCTAssertEqual(machine.attach("s"), .subscribe)
        XCTAssertEqual(next(&machine), .idle, "no demand yet")
        machine.requested(.max(1))
        XCTAssertEqual(next(&machine), .deliver("s", text("a")))
        machine.delivered(demand: .none)
        XCTAssertFalse(machine.isFull, "room again: reading resumes")
        XCTAssertEqual(next(&machine), .idle, "demand used up")
        machine.requested(.unlimited)
        XCTAssertEqual(next(&machine), .deliver("s", text("b")))
        machine.delivered(demand: .none)
        machine.bytesArrived()
        XCTAssertEqual(next(&machine), .decode, "the reader may hold more of a burst")
    }

    func testASecondSubscriberIsRejected() {
        var machine = Machine(limit: 2)
        XCTAssertEqual(machine.attach("first"), .subscribe)
        XCTAssertEqual(machine.attach("second"), .reject)
    }

    func testACallBackFromInsideADeliveryDoesNothingUntilItReturns() {
        var machine = Machine(limit: 4)
        _ = machine.attach("s")
        machine.received(text("a"), input: .open)
        machine.received(text("b"), input: .open)
        machine.requested(.max(1))
        XCTAssertEqual(next(&machine), .deliver("s", text("a")))
        machine.requested(.max(1))  // the subscriber asks for more while receiving
        machine.bytesArrived()
        XCTAssertEqual(next(&machine), .idle, "no nested delivery or decoding")
        machine.received(text("c"), input: .open)
        machine.delivered(demand: .none)
        XCTAssertEqual(next(&machine), .deliver("s", text("b")), "the demand asked for meanwhile counts")
        machine.delivered(demand: .max(1))
        XCTAssertEqual(next(&machine), .deliver("s", text("c")), "the demand returned counts")
    }

    func testCloseDuringDeliveryCompletesOnceTheQueueIsDelivered() {
        var machine = Machine(limit: 4)
        _ = machine.attach("s")
        machine.received(text("a"), input: .open)
        machine.received(text("b"), input: .open)
        machine.requested(.max(1))
        XCTAssertEqual(next(&machine), .deliver("s", text("a")))
        // The subscriber's reaction closes the session: input ends mid-delivery.
        XCTAssertEqual(next(&machine, input: .ended), .idle, "nothing while delivering")
        machine.received(text("late"), input: .ended)
        machine.delivered(demand: .none)
        XCTAssertEqual(next(&machine, input: .ended), .idle, "b waits for demand")
        machine.requested(.max(5))
        XCTAssertEqual(next(&machine, input: .ended), .deliver("s", text("b")))
        machine.delivered(demand: .none)
        XCTAssertEqual(next(&machine, input: .ended), .complete("s"), "the late message was never queued")
        XCTAssertEqual(next(&machine, input: .ended), .idle, "completed once")
        XCTAssertEqual(machine.attach("t"), .reject)
    }

    func testTheConnectionClosingStillDeliversTheQueueToItsSubscriber() {
        var machine = Machine(limit: 4)
        _ = machine.attach("s")
        machine.received(text("a"), input: .open)
        XCTAssertEqual(next(&machine, input: .closed, readsFrames: false), .idle)
        machine.requested(.max(1))
        XCTAssertEqual(next(&machine, input: .closed, readsFrames: false), .deliver("s", text("a")))
        machine.delivered(demand: .none)
        XCTAssertEqual(next(&machine, input: .closed, readsFrames: false), .complete("s"))
    }

    func testWithoutASubscriberTheQueueWaitsUntilTheConnectionCloses() {
        var machine = Machine(limit: 4)
        XCTAssertEqual(next(&machine, input: .ended), .complete(nil), "ended with nothing queued")
        XCTAssertEqual(machine.attach("late"), .reject)

        var waiting = Machine(limit: 4)
        waiting.received(text("a"), input: .open)
        XCTAssertEqual(next(&waiting, input: .ended), .idle, "a subscriber may still come")
        XCTAssertEqual(next(&waiting, input: .closed), .complete(nil), "nobody will take it")
        XCTAssertEqual(waiting.queuedCount, 0)
    }

    func testCancelDropsTheQueueAndLaterMessagesButKeepsDecoding() {
        var machine = Machine(limit: 1)
        _ = machine.attach("s")
        machine.received(text("a"), input: .open)
        XCTAssertTrue(machine.isFull)
        XCTAssertEqual(machine.cancelled(), "s")
        XCTAssertNil(machine.cancelled(), "released once")
        XCTAssertFalse(machine.isFull, "reading resumes")
        machine.bytesArrived()
        XCTAssertEqual(next(&machine), .decode, "control frames still matter")
        machine.received(text("b"), input: .open)
        XCTAssertEqual(machine.queuedCount, 0)
        XCTAssertEqual(next(&machine, input: .ended, readsFrames: false), .complete(nil))
    }

    func testCancelDuringDeliveryStopsDelivery() {
        var machine = Machine(limit: 4)
        _ = machine.attach("s")
        machine.received(text("a"), input: .open)
        machine.received(text("b"), input: .open)
        machine.requested(.unlimited)
        XCTAssertEqual(next(&machine), .deliver("s", text("a")))
        XCTAssertEqual(machine.cancelled(), "s")
        machine.delivered(demand: .none)
        XCTAssertEqual(next(&machine), .idle, "b is not delivered")
        XCTAssertEqual(next(&machine, input: .ended), .complete(nil), "nobody to tell")
    }

    func testMessagesAfterInputEndedAreDropped() {
        var machine = Machine(limit: 4)
        machine.received(text("a"), input: .ended)
        machine.received(text("b"), input: .closed)
        XCTAssertEqual(machine.queuedCount, 0)
    }
}

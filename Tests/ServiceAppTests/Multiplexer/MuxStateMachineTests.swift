import PipelineWire
import StreamCore
import XCTest

@testable import ServiceApp

/// `MuxStateMachine` fed in memory: every client frame, demand rule, overflow, cancel, limit and
/// the session accounting, as the actions it returns.
final class MuxStateMachineTests: XCTestCase {
    private typealias Action = MuxStateMachine.Action

    private func machine(maxSubscriptions: Int = 16, maxPendingEvents: Int = 256) -> MuxStateMachine {
        MuxStateMachine(settings: .init(maxSubscriptions: maxSubscriptions, maxPendingEvents: maxPendingEvents))
    }

    private func subscribe(_ id: String, _ pipeline: String = "form", demand: MuxDemand = .unlimited, trace: Bool = false) -> MuxStateMachine.Input {
        .frame(.subscribe(id: id, pipeline: .catalog(pipeline), demand: demand, trace: trace))
    }

    private func event(_ id: String, _ text: String) -> Action { .send(.event(id: id, event: text)) }

    func testSubscribeSendsSubscribedThenStartsTheInstanceThenReadsOn() {
        var mux = machine()
        XCTAssertEqual(mux.handle(subscribe("u1", "github-user", trace: true)), [
            .send(.subscribed(id: "u1", pipeline: "github-user")), .start(1, pipeline: .catalog("github-user"), trace: true), .readNext,
        ])
        XCTAssertEqual(mux.running, 1)
        XCTAssertEqual(mux.handle(.frame(.send(id: "u1", message: .text("heckj")))), [.deliver(1, message: "heckj"), .readNext])
        XCTAssertEqual(mux.handle(.frame(.send(id: "u1", message: .object(json: #"{"type":"input", "value":"x"}"#)))),
                       [.deliver(1, message: #"{"type":"input", "value":"x"}"#), .readNext], "an object's text as it came")
    }

    func testEventsNeverExceedDemandAndWaitInOrderUntilRequested() {
        var mux = machine()
        _ = mux.handle(subscribe("f1", demand: .max(2)))
        XCTAssertEqual(mux.handle(.event(1, "e1")), [event("f1", "e1")])
        XCTAssertEqual(mux.handle(.event(1, "e2")), [event("f1", "e2")])
        XCTAssertEqual(mux.handle(.event(1, "e3")), [], "demand used up: held")
        XCTAssertEqual(mux.handle(.event(1, "e4")), [])
        XCTAssertEqual(mux.held, 2)
        XCTAssertEqual(mux.handle(.frame(.request(id: "f1", demand: .max(1)))), [event("f1", "e3"), .readNext])
        XCTAssertEqual(mux.held, 1)
        XCTAssertEqual(mux.handle(.frame(.request(id: "f1", demand: .max(3)))), [event("f1", "e4"), .readNext])
        XCTAssertEqual(mux.handle(.event(1, "e5")), [event("f1", "e5")], "demand left over from the request")
        XCTAssertEqual(mux.handle(.event(1, "e6")), [event("f1", "e6")])
        XCTAssertEqual(mux.handle(.event(1, "e7")), [])
        XCTAssertEqual(mux.handle(.frame(.request(id: "f1", demand: .unlimited))), [event("f1", "e7"), .readNext])
        XCTAssertEqual(mux.handle(.event(1, "e8")), [event("f1", "e8")])
        XCTAssertEqual(mux.held, 0)
    }

    func testDemandZeroHoldsOnlyItsOwnSubscription() {
        var mux = machine()
        _ = mux.handle(subscribe("slow", demand: .none))
        _ = mux.handle(subscribe("fast"))
        XCTAssertEqual(mux.handle(.admitted(2, granted: true)), [
            .send(.subscribed(id: "fast", pipeline: "form")), .start(2, pipeline: .catalog("form"), trace: false), .readNext,
        ])
        XCTAssertEqual(mux.handle(.event(1, "s1")), [])
        XCTAssertEqual(mux.handle(.event(2, "f1")), [event("fast", "f1")])
        XCTAssertEqual(mux.handle(.event(1, "s2")), [])
        XCTAssertEqual(mux.handle(.event(2, "f2")), [event("fast", "f2")])
        XCTAssertEqual(mux.handle(.frame(.request(id: "slow", demand: .max(5)))), [event("slow", "s1"), event("slow", "s2"), .readNext])
    }

    func testTracesGoOutsideDemand() {
        var mux = machine()
        _ = mux.handle(subscribe("f1", demand: .none, trace: true))
        XCTAssertEqual(mux.handle(.trace(1, #"{"type":"trace"}"#)), [.send(.trace(id: "f1", trace: #"{"type":"trace"}"#))])
        XCTAssertEqual(mux.handle(.event(1, "e1")), [])
    }

    func testOneEventPastMaxPendingEndsTheSubscriptionWithOverflow() {
        var mux = machine(maxPendingEvents: 2)
        _ = mux.handle(subscribe("f1", demand: .none))
        XCTAssertEqual(mux.handle(.event(1, "e1")), [])
        XCTAssertEqual(mux.handle(.event(1, "e2")), [])
        XCTAssertEqual(mux.held, 2)
        XCTAssertEqual(mux.handle(.event(1, "e3")), [.send(.overflow(id: "f1", limit: 2)), .tearDown(1)])
        XCTAssertEqual([mux.held, mux.running], [0, 0])
        XCTAssertEqual(mux.handle(.event(1, "late")), [], "nothing more for the ended instance")
        XCTAssertEqual(mux.handle(.frame(.request(id: "f1", demand: .max(1)))), [
            .send(.error(id: "f1", code: .unknownID, message: "no live subscription has this id")), .readNext,
        ])
        XCTAssertEqual(MuxServerFrame.overflow(id: "f1", limit: 2).json,
                       #"{"failure":{"code":"overflow","message":"more than 2 events waited for demand"},"id":"f1","type":"completion"}"#)
    }

    func testCancelTearsDownSendsNothingAndFreesTheID() {
        var mux = machine()
        _ = mux.handle(subscribe("f1", demand: .none))
        _ = mux.handle(.event(1, "held"))
        XCTAssertEqual(mux.handle(.frame(.cancel(id: "f1"))), [.tearDown(1), .readNext], "no completion after a cancel")
        XCTAssertEqual([mux.held, mux.running], [0, 0])
        XCTAssertEqual(mux.handle(.event(1, "late")), [])
        XCTAssertEqual(mux.handle(.trace(1, "{}")), [])
        XCTAssertEqual(mux.handle(subscribe("f1")), [
            .send(.subscribed(id: "f1", pipeline: "form")), .start(2, pipeline: .catalog("form"), trace: false), .readNext,
        ], "the id is free again, with a new serial")
        XCTAssertEqual(mux.handle(.event(1, "old instance")), [])
        XCTAssertEqual(mux.handle(.event(2, "new")), [event("f1", "new")])
    }

    func testRefusedFramesAnswerAnErrorAndReadOn() {
        var mux = machine(maxSubscriptions: 1)
        func error(_ id: String?, _ code: MuxErrorCode) -> [Action] {
            let actions = mux.handle(.refused(MuxFrameError(id: id, code: code, message: "m")))
            return actions
        }
        XCTAssertEqual(error(nil, .badMessage), [.send(.error(id: nil, code: .badMessage, message: "m")), .readNext])
        XCTAssertEqual(mux.handle(.frame(.send(id: "x", message: .text("m")))).first, .send(.error(id: "x", code: .unknownID, message: "no live subscription has this id")))
        XCTAssertEqual(mux.handle(.frame(.cancel(id: "x"))).first, .send(.error(id: "x", code: .unknownID, message: "no live subscription has this id")))
        XCTAssertEqual(mux.handle(subscribe("p", "nope")).first, .send(.error(
            id: "p", code: .unknownPipeline, message: #"no pipeline is called "nope" (see GET /api/pipelines)"#)))
        _ = mux.handle(subscribe("a"))
        XCTAssertEqual(mux.handle(subscribe("a")), [.send(.error(id: "a", code: .duplicateID, message: "a live subscription has this id")), .readNext])
        XCTAssertEqual(mux.handle(subscribe("b")), [
            .send(.error(id: "b", code: .tooManySubscriptions, message: "at most 1 subscriptions per connection")), .readNext,
        ], "checked before anything is kept or asked of fair use")
        XCTAssertEqual(mux.running, 1)
    }

    /// A composed subscription's definition is read before anything else is done: refused with
    /// its stage; a valid one starts like a catalog pipeline, as `composed`.
    func testAComposedDefinitionIsCheckedFirst() {
        var mux = machine()
        func subscribe(_ definition: String) -> [Action] {
            mux.handle(.frame(.subscribe(id: "c", pipeline: .composed(definition), demand: .unlimited, trace: false)))
        }
        XCTAssertEqual(subscribe(#"{"stages":[{"op":"delay"},{"op":"map","fn":"count"},{"op":"map","fn":"trimmed"}]}"#), [
            .send(.error(id: "c", code: .badPipeline, message: "map does not accept a number (it accepts string)", stage: 2)), .readNext,
        ])
        XCTAssertEqual(subscribe(#"{"stages":[]}"#), [
            .send(.error(id: "c", code: .badPipeline, message: "a pipeline needs at least one stage", stage: nil)), .readNext,
        ])
        XCTAssertEqual(subscribe(#"{"stages":[{"op":"collect","count":3},{"op":"collect","count":50}]}"#), [
            .send(.error(
                id: "c", code: .badPipeline,
                message: "collect: its values would hold up to 150 input values; nested collects multiply, and a value may hold at most 100 (a collect by time holds up to 100 per group)",
                stage: 1)),
            .readNext,
        ])
        XCTAssertEqual(mux.running, 0)
        XCTAssertEqual(subscribe(#"{"stages":[{"op":"delay"}]}"#), [
            .send(.subscribed(id: "c", pipeline: "composed")),
            .start(1, pipeline: .composed(PipelineDefinition(stages: [.delay(ms: 200)])), trace: false),
            .readNext,
        ])
        XCTAssertEqual(mux.running, 1)
    }

    // MARK: Sessions

    func testEverySubscriptionButTheFirstAsksFairUseAndWaits() {
        var mux = machine()
        _ = mux.handle(subscribe("a"))
        XCTAssertEqual(mux.handle(subscribe("b")), [.openSession(2)], "no readNext: the client's frames wait for the answer")
        XCTAssertEqual(mux.running, 1)
        XCTAssertEqual(mux.handle(.admitted(2, granted: false)), [
            .send(.error(id: "b", code: .tooManySessions, message: "this client has its most sessions open (each subscription counts)")),
            .readNext,
        ])
        XCTAssertEqual(mux.handle(.frame(.send(id: "b", message: .text("x")))).first?.isError(.unknownID), true, "a refused subscription does not exist")
        XCTAssertEqual(mux.handle(subscribe("b")), [.openSession(3)])
        XCTAssertEqual(mux.handle(.admitted(3, granted: true)), [
            .send(.subscribed(id: "b", pipeline: "form")), .start(3, pipeline: .catalog("form"), trace: false), .readNext,
        ])
        XCTAssertEqual(mux.handle(.frame(.cancel(id: "b"))), [.tearDown(3), .closeSession(3), .readNext], "its session is given back")
    }

    func testWhenTheFirstSubscriptionEndsAnotherTakesTheConnectionsSessionOver() {
        var mux = machine()
        _ = mux.handle(subscribe("a"))
        _ = mux.handle(subscribe("b"))
        _ = mux.handle(.admitted(2, granted: true))
        XCTAssertEqual(mux.handle(.frame(.cancel(id: "a"))), [.tearDown(1), .closeSession(2), .readNext],
                       "b now uses the connection's own session; its extra one goes back")
        XCTAssertEqual(mux.handle(.frame(.cancel(id: "b"))), [.tearDown(2), .readNext], "nothing more to give back")
        XCTAssertEqual(mux.handle(subscribe("c")), [
            .send(.subscribed(id: "c", pipeline: "form")), .start(3, pipeline: .catalog("form"), trace: false), .readNext,
        ], "the connection's session is free again")
    }

    func testTheOldestOtherSubscriptionTakesTheBaseOver() {
        var mux = machine()
        _ = mux.handle(subscribe("a"))
        for (index, id) in ["b", "c", "d"].enumerated() {
            _ = mux.handle(subscribe(id))
            _ = mux.handle(.admitted(MuxStateMachine.Serial(index + 2), granted: true))
        }
        _ = mux.handle(.frame(.cancel(id: "c")))
        XCTAssertEqual(mux.handle(.frame(.cancel(id: "a"))), [.tearDown(1), .closeSession(2), .readNext], "b, the oldest left")
        XCTAssertEqual(mux.handle(.frame(.cancel(id: "d"))), [.tearDown(4), .closeSession(4), .readNext], "d keeps its own session")
        XCTAssertEqual(mux.handle(.frame(.cancel(id: "b"))), [.tearDown(2), .readNext], "b uses the connection's")
    }

    func testAGrantForASubscriptionWhoseBaseEndedMeanwhileGoesBack() {
        var mux = machine(maxPendingEvents: 1)
        _ = mux.handle(subscribe("a", demand: .none))
        XCTAssertEqual(mux.handle(subscribe("b")), [.openSession(2)])
        _ = mux.handle(.event(1, "e1"))
        XCTAssertEqual(mux.handle(.event(1, "e2")), [.send(.overflow(id: "a", limit: 1)), .tearDown(1)])
        XCTAssertEqual(mux.handle(.admitted(2, granted: true)), [
            .closeSession(2), .send(.subscribed(id: "b", pipeline: "form")), .start(2, pipeline: .catalog("form"), trace: false), .readNext,
        ])
    }

    func testClosingCancelsEverySubscriptionAndGivesEverySessionBack() {
        var mux = machine()
        _ = mux.handle(subscribe("a", demand: .none))
        _ = mux.handle(.event(1, "held"))
        _ = mux.handle(subscribe("b"))
        _ = mux.handle(.admitted(2, granted: true))
        _ = mux.handle(subscribe("c"))
        XCTAssertEqual(mux.handle(.closed), [.tearDown(1), .tearDown(2), .closeSession(2)])
        XCTAssertEqual([mux.running, mux.held], [0, 0])
        XCTAssertEqual(mux.handle(.admitted(3, granted: true)), [.closeSession(3)], "a late grant goes back")
        XCTAssertEqual(mux.handle(.admitted(3, granted: false)), [])
        XCTAssertEqual(mux.handle(.event(2, "late")), [])
        XCTAssertEqual(mux.handle(subscribe("d")), [])
    }
}

extension MuxStateMachine.Action {
    func isError(_ code: MuxErrorCode) -> Bool {
        if case .send(.error(_, code, _, _)) = self { return true }
        return false
    }
}

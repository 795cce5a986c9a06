import Foundation
@testable import ServiceApp
import XCTest

/// The `/ws/form` pipeline (the seed's ReactiveFormModel): from empty fields to submitted.
final class FormPipelineTests: XCTestCase {
    private final class Log: @unchecked Sendable {
        // Sendable: `events` is guarded by `lock`.
        private let lock = NSLock()
        private var events: [FormEvent] = []
        func append(_ event: FormEvent) { lock.withLock { events.append(event) } }
        func take() -> [FormEvent] { lock.withLock { defer { events = [] }; return events } }
    }

    private let log = Log()
    private var pipeline: FormPipeline!

    override func setUp() {
        super.setUp()
        let log = self.log
        pipeline = FormPipeline { log.append($0) }
    }

    override func tearDown() {
        pipeline.cancel()
        super.tearDown()
    }

    private func send(_ frame: FormFrame) -> [FormEvent] {
        pipeline.receive(frame) { log.append($0) }
        return log.take()
    }

    private let value1Invalid = FormEvent.validation(field: "value1", valid: false, message: FormPipeline.value1Message)
    private let value1Valid = FormEvent.validation(field: "value1", valid: true, message: "")
    private let value2Invalid = FormEvent.validation(field: "value2", valid: false, message: FormPipeline.value2Message)
    private let value2Valid = FormEvent.validation(field: "value2", valid: true, message: "")

    func testTraceFromEmptyFieldsToSubmitted() {
        XCTAssertEqual(log.take(), [value1Invalid, value2Invalid, .submit(allowed: false)], "the start state")
        XCTAssertEqual(send(.field(.value1, "ab")), [], "still invalid: nothing new")
        XCTAssertEqual(send(.field(.value1, "abc")), [value1Valid])
        XCTAssertEqual(send(.submit), [.error(code: "not_ready", message: "the form is not valid yet")])
        XCTAssertEqual(send(.field(.value2, "secret")), [])
        XCTAssertEqual(send(.field(.value2Repeat, "secre")), [], "values must match")
        XCTAssertEqual(send(.field(.value2Repeat, "secret")), [value2Valid, .submit(allowed: true)])
        XCTAssertEqual(send(.field(.value1, "abcd")), [], "still valid, still allowed: no duplicate events")
        XCTAssertEqual(send(.submit), [.submitted(value1: "abcd", value2: "secret")])
        XCTAssertEqual(send(.field(.value2, "secret!")), [value2Invalid, .submit(allowed: false)])
        XCTAssertEqual(send(.submit), [.error(code: "not_ready", message: "the form is not valid yet")])
    }

    func testMatchingValuesShorterThanFiveAreInvalid() {
        _ = log.take()
        _ = send(.field(.value1, "abc"))
        XCTAssertEqual(send(.field(.value2, "abcd")), [])
        XCTAssertEqual(send(.field(.value2Repeat, "abcd")), [], "4 characters, matching: still invalid")
        XCTAssertEqual(send(.field(.value2Repeat, "abcde")), [])
        XCTAssertEqual(send(.field(.value2, "abcde")), [value2Valid, .submit(allowed: true)])
    }

    /// Counts are characters as a person sees them: `é` and `👍🏽` count 1; spaces count.
    func testCountsAreCharactersAsAPersonSeesThem() {
        _ = log.take()
        XCTAssertEqual(send(.field(.value1, "é👍🏽")), [], "2 characters (6 scalars, 12 bytes)")
        XCTAssertEqual(send(.field(.value1, "é👍🏽x")), [value1Valid])
        XCTAssertEqual(send(.field(.value1, "  ")), [value1Invalid])
        XCTAssertEqual(send(.field(.value1, "   ")), [value1Valid], "spaces count, as in the seed")
        _ = send(.field(.value2, "👍🏽👍🏽👍🏽👍🏽👍🏽"))
        XCTAssertEqual(send(.field(.value2Repeat, "👍🏽👍🏽👍🏽👍🏽👍🏽")), [value2Valid, .submit(allowed: true)])
        XCTAssertEqual(send(.submit), [.submitted(value1: "   ", value2: "👍🏽👍🏽👍🏽👍🏽👍🏽")])
    }

    func testFramesAndEventsAreTheContractsJSON() {
        XCTAssertEqual(FormFrame(text: #"{"type":"field","name":"value2_repeat","value":"x"}"#), .field(.value2Repeat, "x"))
        XCTAssertEqual(FormFrame(text: #"{"type":"submit"}"#), .submit)
        guard case .unreadable = FormFrame(text: #"{"type":"field","name":"email","value":"x"}"#) else { return XCTFail() }
        guard case .unreadable = FormFrame(text: "hello") else { return XCTFail() }
        guard case .unreadable = FormFrame(text: #"{"type":"field","name":"value1"}"#) else { return XCTFail() }
        XCTAssertEqual(FormEvent.hello.json, #"{"pipeline":"form","type":"hello"}"#)
        XCTAssertEqual(value1Invalid.json,
                       #"{"field":"value1","message":"minimum of 3 characters required","type":"validation","valid":false}"#)
        XCTAssertEqual(FormEvent.submit(allowed: true).json, #"{"allowed":true,"type":"submit"}"#)
        XCTAssertEqual(FormEvent.submitted(value1: "é", value2: "👍🏽").json, #"{"type":"submitted","value1":"é","value2":"👍🏽"}"#)
    }

    func testBadFramesAnswerErrorsAndLoseNothing() {
        _ = log.take()
        _ = send(.field(.value1, "abc"))
        let events = send(FormFrame(text: "{oops"))
        XCTAssertEqual(events.count, 1)
        guard case .error(code: "bad_message", _) = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(pipeline.value1.value, "abc")
    }
}

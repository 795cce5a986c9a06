import StreamCore
import XCTest

final class CurrentValueSubjectTests: XCTestCase {
    func testNewSubscriberReceivesCurrentValueOnDemand() {
        let subject = CurrentValueSubject<Int, Never>(1)
        subject.value = 2
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        subject.subscribe(recorder)
        XCTAssertEqual(recorder.values, [])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [2])
    }

    func testOwedValueIsTheLatest() {
        let subject = CurrentValueSubject<String, Never>("a")
        let recorder = Recorder<String, Never>(initialDemand: .max(1))
        subject.subscribe(recorder)
        subject.send("b")
        subject.send("c")
        XCTAssertEqual(recorder.values, ["a"])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, ["a", "c"], "the value owed on new demand is the current one")
    }

    func testValueReflectsLastSend() {
        let subject = CurrentValueSubject<Int?, Never>(nil)
        XCTAssertNil(subject.value)
        subject.send(5)
        XCTAssertEqual(subject.value, 5)
    }

    func testCompletionEndsDelivery() {
        let subject = CurrentValueSubject<Int, TestError>(0)
        let recorder = Recorder<Int, TestError>()
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        subject.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(0), .value(1), .completion(.finished)])
    }
}

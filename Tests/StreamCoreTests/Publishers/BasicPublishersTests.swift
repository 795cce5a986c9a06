import StreamCore
import XCTest

final class BasicPublishersTests: XCTestCase {
    func testJustWaitsForDemand() {
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        Just(7).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.finished)])
    }

    func testEmptyAndFail() {
        let empty = Recorder<Int, Never>()
        Empty<Int, Never>().subscribe(empty)
        XCTAssertEqual(empty.events, [.subscription, .completion(.finished)])
        let never = Recorder<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).subscribe(never)
        XCTAssertEqual(never.events, [.subscription])
        let fail = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).subscribe(fail)
        XCTAssertEqual(fail.events, [.subscription, .completion(.failure(.boom))])
    }

    func testSequenceDeliversInDemandSizedSteps() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .none)
        [1, 2, 3].publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1])
        recorder.request(.max(2))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testSequenceDemandReturnedFromReceiveKeepsItGoing() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (1...4).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2, 3, 4])
        XCTAssertEqual(recorder.completions.count, 1)
    }

    func testSequenceCancelStops() {
        var received: [Int] = []
        var sink: Subscribers.Sink<Int, Never>?
        sink = Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { value in
            received.append(value)
            if value == 3 { sink?.cancel() }
        })
        (1...100).publisher.subscribe(sink!)
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testSinkAndAssign() {
        final class Model { var value = 0 }
        let model = Model()
        let cancellable = [1, 2, 9].publisher.assign(to: \.value, on: model)
        XCTAssertEqual(model.value, 9)
        cancellable.cancel()
        var completed = false
        _ = Just(1).sink(receiveCompletion: { _ in completed = true }, receiveValue: { _ in })
        XCTAssertTrue(completed)
    }

    func testAnyPublisherAndAnySubscriberErase() {
        let recorder = Recorder<Int, Never>()
        Just(3).eraseToAnyPublisher().subscribe(AnySubscriber(recorder))
        XCTAssertEqual(recorder.values, [3])
    }

    /// The book: Empty "will immediately return a finished completion", Fail "immediately
    /// triggers a failure on subscription": neither waits for demand (as in Apple's Combine).
    func testEmptyAndFailCompleteWithoutDemand() {
        let empty = Recorder<Int, TestError>(initialDemand: .none)
        Empty<Int, TestError>().subscribe(empty)
        XCTAssertEqual(empty.events, [.subscription, .completion(.finished)])
        let fail = Recorder<Int, TestError>(initialDemand: .none)
        Fail<Int, TestError>(error: .boom).subscribe(fail)
        XCTAssertEqual(fail.events, [.subscription, .completion(.failure(.boom))])
    }

    /// The book: the value returned by assign "can be cancelled, and is frequently used when
    /// disabling the pipeline"; the sink's closure runs for every value "prior to any cancellation".
    func testAssignAndSinkStopAtCancel() {
        final class Model { var value = 0 }
        let model = Model()
        let subject = PassthroughSubject<Int, Never>()
        let assignment = subject.assign(to: \.value, on: model)
        var sunk: [Int] = []
        let sink = subject.sink { sunk.append($0) }
        subject.send(1)
        assignment.cancel()
        sink.cancel()
        subject.send(2)
        XCTAssertEqual(model.value, 1)
        XCTAssertEqual(sunk, [1])
    }
}

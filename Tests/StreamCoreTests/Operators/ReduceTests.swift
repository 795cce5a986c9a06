import StreamCore
import XCTest

final class ReduceTests: XCTestCase {
    func testFoldsAllValuesOnFinish() {
        let recorder = Recorder<String, Never>()
        (1...4).publisher.reduce("") { $0 + "\($1)" }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value("1234"), .completion(.finished)])
    }

    func testEmptyUpstreamEmitsInitialValue() {
        let recorder = Recorder<Int, Never>()
        Empty<Int, Never>().reduce(42, +).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(42), .completion(.finished)])
    }

    func testWaitsForDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        subject.reduce(0, +).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
    }

    func testFailurePropagatesWithoutValue() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.reduce(0, +).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testCancelPropagatesUpstream() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.reduce(0, +).subscribe(recorder)
        recorder.cancel()
        upstream.send(1)
        upstream.send(completion: .finished)
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.reduce(0, +) }
    }
}

final class TryReduceTests: XCTestCase {
    func testFoldsAllValues() {
        let recorder = Recorder<Int, Error>()
        (1...4).publisher.tryReduce(0, +).subscribe(recorder)
        XCTAssertEqual(recorder.values, [10])
        XCTAssertEqual(testError(recorder.completions), [nil])
    }

    func testThrownErrorCancelsUpstreamAndFails() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, Error>()
        upstream.tryReduce(0) { sum, value in
            if value == 3 { throw TestError.boom }
            return sum + value
        }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        upstream.send(4)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.values, [])
        XCTAssertEqual(testError(recorder.completions), [.boom])
    }

    func testUpstreamFailureIsForwarded() {
        let recorder = Recorder<Int, Error>()
        Fail<Int, TestError>(error: .other(1)).tryReduce(0, +).subscribe(recorder)
        XCTAssertEqual(testError(recorder.completions), [.other(1)])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.tryReduce(0, +) }
    }
}

final class CountTests: XCTestCase {
    func testCountsValues() {
        let recorder = Recorder<Int, Never>()
        ["a", "b", "c"].publisher.count().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
    }

    func testEmptyUpstreamCountsZero() {
        let recorder = Recorder<Int, Never>()
        Empty<String, Never>().count().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(0), .completion(.finished)])
    }

    func testFailureEmitsNoCount() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.count().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.count() }
    }
}

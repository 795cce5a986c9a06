import StreamCore
import XCTest

final class ComparisonTests: XCTestCase {
    func testMaxAndMin() {
        let max = Recorder<Int, Never>()
        [3, 9, 1, 7].publisher.max().subscribe(max)
        XCTAssertEqual(max.events, [.subscription, .value(9), .completion(.finished)])
        let min = Recorder<Int, Never>()
        [3, 9, 1, 7].publisher.min().subscribe(min)
        XCTAssertEqual(min.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testByClosureKeepsFirstOfEqualElements() {
        let recorder = Recorder<String, Never>()
        ["bb", "a", "cc", "d"].publisher.max { $0.count < $1.count }.subscribe(recorder)
        XCTAssertEqual(recorder.values, ["bb"])
        let min = Recorder<String, Never>()
        ["bb", "a", "cc", "d"].publisher.min { $0.count < $1.count }.subscribe(min)
        XCTAssertEqual(min.values, ["a"])
    }

    func testEmptyUpstreamEmitsNothingAndFinishes() {
        let recorder = Recorder<Int, Never>()
        Empty<Int, Never>().max().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testEmitsOnlyOnFinishAndOnlyWithDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .none)
        subject.max().subscribe(recorder)
        subject.send(2)
        subject.send(5)
        XCTAssertEqual(recorder.events, [.subscription])
        subject.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.finished)])
    }

    func testFailurePropagates() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.min().subscribe(recorder)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testCancelPropagatesUpstream() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.max().subscribe(recorder)
        recorder.cancel()
        upstream.send(1)
        upstream.send(completion: .finished)
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.max() }
        assertReleasedAfterCancel { $0.min(by: <) }
    }
}

final class TryComparisonTests: XCTestCase {
    func testTryMaxAndTryMin() {
        let max = Recorder<Int, Error>()
        [3, 9, 1].publisher.tryMax(by: <).subscribe(max)
        XCTAssertEqual(max.values, [9])
        let min = Recorder<Int, Error>()
        [3, 9, 1].publisher.tryMin(by: <).subscribe(min)
        XCTAssertEqual(min.values, [1])
        XCTAssertEqual(testError(min.completions), [nil])
    }

    func testThrowingOrderCancelsUpstreamAndFails() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, Error>()
        upstream.tryMax { lhs, rhs in
            if rhs < 0 { throw TestError.other(rhs) }
            return lhs < rhs
        }.subscribe(recorder)
        upstream.send(1)
        upstream.send(-4)
        upstream.send(7)
        upstream.send(completion: .finished)
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.values, [])
        XCTAssertEqual(testError(recorder.completions), [.other(-4)])
    }

    func testEmptyUpstreamEmitsNothing() {
        let recorder = Recorder<Int, Error>()
        Empty<Int, Never>().tryMin(by: <).subscribe(recorder)
        XCTAssertEqual(recorder.values, [])
        XCTAssertEqual(testError(recorder.completions), [nil])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.tryMax(by: <) }
    }
}

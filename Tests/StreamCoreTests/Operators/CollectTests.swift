import StreamCore
import XCTest

final class CollectTests: XCTestCase {
    func testEmitsAllValuesAsOneArrayOnFinish() {
        let recorder = Recorder<[Int], Never>()
        (1...4).publisher.collect().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value([1, 2, 3, 4]), .completion(.finished)])
    }

    func testEmptyUpstreamEmitsEmptyArray() {
        let recorder = Recorder<[Int], Never>()
        Empty<Int, Never>().collect().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value([]), .completion(.finished)])
    }

    func testRequestsUnlimitedAndWaitsForDemandToEmit() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<[Int], TestError>(initialDemand: .none)
        upstream.collect().subscribe(recorder)
        XCTAssertEqual(upstream.requests, [.unlimited])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription], "nothing is delivered without demand")
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value([1, 2]), .completion(.finished)])
    }

    func testFailureDiscardsCollection() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<[Int], TestError>()
        subject.collect().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testCancelStopsEverything() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<[Int], TestError>()
        upstream.collect().subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        upstream.send(2)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.collect() }
    }
}

final class CollectByCountTests: XCTestCase {
    func testEmitsFullArraysThenRemainderOnFinish() {
        let recorder = Recorder<[Int], Never>()
        (1...7).publisher.collect(3).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value([1, 2, 3]), .value([4, 5, 6]), .value([7]), .completion(.finished)])
    }

    func testExactMultipleHasNoRemainder() {
        let recorder = Recorder<[Int], Never>()
        (1...4).publisher.collect(2).subscribe(recorder)
        XCTAssertEqual(recorder.values, [[1, 2], [3, 4]])
        XCTAssertEqual(recorder.completions.count, 1)
    }

    func testDemandIsMultipliedByCount() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<[Int], TestError>(initialDemand: .max(2), demandPerValue: .max(3))
        upstream.collect(4).subscribe(recorder)
        XCTAssertEqual(upstream.requests, [.max(8)])
        XCTAssertEqual(upstream.send(1), .none)
        XCTAssertEqual(upstream.send(2), .none)
        XCTAssertEqual(upstream.send(3), .none)
        XCTAssertEqual(upstream.send(4), .max(12), "the downstream's demand for 3 arrays is 12 values")
        recorder.request(.max(1))
        XCTAssertEqual(upstream.requests, [.max(8), .max(4)])
        XCTAssertEqual(recorder.values, [[1, 2, 3, 4]])
    }

    func testDemandHonouredFromSequence() {
        let recorder = Recorder<[Int], Never>(initialDemand: .max(1), demandPerValue: .none)
        (1...10).publisher.collect(3).subscribe(recorder)
        XCTAssertEqual(recorder.values, [[1, 2, 3]])
        recorder.request(.max(2))
        XCTAssertEqual(recorder.values, [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
        XCTAssertTrue(recorder.completions.isEmpty)
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values.last, [10])
        XCTAssertEqual(recorder.completions.count, 1)
    }

    func testEmptyUpstreamEmitsNothing() {
        let recorder = Recorder<[Int], Never>()
        Empty<Int, Never>().collect(2).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testFailureDiscardsPartialBuffer() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<[Int], TestError>()
        subject.collect(2).subscribe(recorder)
        (1...3).forEach(subject.send)
        subject.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .value([1, 2]), .completion(.failure(.boom))])
    }

    func testCancelPropagatesAndLaterSendsAreIgnored() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<[Int], TestError>()
        upstream.collect(2).subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        upstream.send(2)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.collect(2) }
    }
}

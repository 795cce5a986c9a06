import StreamCore
import XCTest

final class BufferTests: XCTestCase {
    private func run(
        size: Int = 3,
        prefetch: Publishers.PrefetchStrategy = .byRequest,
        whenFull: Publishers.BufferingStrategy<TestError>
    ) -> (ScriptedPublisher<Int, TestError>, Recorder<Int, TestError>) {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>(initialDemand: .none)
        upstream.buffer(size: size, prefetch: prefetch, whenFull: whenFull).subscribe(recorder)
        return (upstream, recorder)
    }

    func testInitialDemandFollowsPrefetch() {
        XCTAssertEqual(run(size: 5, prefetch: .keepFull, whenFull: .dropNewest).0.requests, [.max(5)])
        XCTAssertEqual(run(size: 5, prefetch: .byRequest, whenFull: .dropNewest).0.requests, [.unlimited])
    }

    func testDropNewest() {
        let (upstream, recorder) = run(whenFull: .dropNewest)
        (1...5).forEach { upstream.send($0) }
        recorder.request(.max(4))
        XCTAssertEqual(recorder.values, [1, 2, 3])
        upstream.send(6)
        XCTAssertEqual(recorder.values, [1, 2, 3, 6], "leftover demand takes new values straight through")
    }

    func testDropOldest() {
        let (upstream, recorder) = run(whenFull: .dropOldest)
        (1...5).forEach { upstream.send($0) }
        recorder.request(.max(3))
        XCTAssertEqual(recorder.values, [3, 4, 5])
    }

    func testCustomErrorCancelsUpstreamAndFailsAfterDeliveringWhatDemandAllows() {
        let (upstream, recorder) = run(whenFull: .customError { .other(9) })
        (1...5).forEach { upstream.send($0) }
        XCTAssertTrue(upstream.cancelled)
        XCTAssertEqual(recorder.values, [])
        recorder.request(.max(2))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(.other(9)))])
    }

    func testFinishWaitsForBufferToDrain() {
        let (upstream, recorder) = run(whenFull: .dropNewest)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)], "as in Combine: the finish waits for demand")
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testFailureWithoutDemandIsDeliveredAtOnce() {
        let (upstream, recorder) = run(whenFull: .dropNewest)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testKeepFullRefillsWhatItHandsOn() {
        let (upstream, recorder) = run(size: 5, prefetch: .keepFull, whenFull: .dropNewest)
        (0..<10).forEach { upstream.send($0) }
        recorder.request(.max(3))
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [0, 1, 2, 3])
        XCTAssertEqual(upstream.requests, [.max(5), .max(3), .max(1)])
    }

    func testCancelReleasesDownstream() {
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>(initialDemand: .none)
            weakRecorder = recorder
            upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
            upstream.send(1)
            recorder.cancel()
        }
        XCTAssertTrue(upstream.cancelled)
        XCTAssertNil(weakRecorder)
    }
}

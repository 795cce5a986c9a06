import StreamCore
import XCTest

final class RetryTests: XCTestCase {
    /// An upstream that fails at once on every subscription, like `Fail` behind a counter.
    private func alwaysFailing() -> ScriptedPublisher<Int, TestError> {
        ScriptedPublisher { $0.send(completion: .failure(.other($0.subscriptionCount))) }
    }

    func testResubscribesUpToTheLimitThenFails() {
        let upstream = alwaysFailing()
        let recorder = Recorder<Int, TestError>()
        upstream.retry(3).subscribe(recorder)
        XCTAssertEqual(upstream.subscriptionCount, 4, "the first attempt and three retries")
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.other(4)))], "one subscription downstream")
    }

    func testRetryZeroIsASingleAttempt() {
        let upstream = alwaysFailing()
        let recorder = Recorder<Int, TestError>()
        upstream.retry(0).subscribe(recorder)
        XCTAssertEqual(upstream.subscriptionCount, 1)
        XCTAssertEqual(recorder.completions, [.failure(.other(1))])
    }

    func testWithoutFailureItJustPassesThrough() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        [1, 2, 3].publisher.retry(5).subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testValuesBeforeFailureAreKeptAndDemandIsCarriedOver() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(5), demandPerValue: .none)
        upstream.retry(2).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(upstream.subscriptionCount, 2)
        XCTAssertEqual(upstream.events, [.requested(.max(5)), .requested(.max(3))])
        upstream.send(3)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testDemandAddedByValuesIsCarriedOver() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(2))
        upstream.retry(1).subscribe(recorder)
        XCTAssertEqual(upstream.send(1), .max(2))
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(upstream.events, [.requested(.max(1)), .requested(.max(2))])
    }

    func testSucceedsAfterSomeFailures() {
        let upstream = ScriptedPublisher<Int, TestError> { publisher in
            if publisher.subscriptionCount < 3 {
                publisher.send(completion: .failure(.boom))
            } else {
                publisher.send(42)
                publisher.send(completion: .finished)
            }
        }
        let recorder = Recorder<Int, TestError>()
        upstream.retry(5).subscribe(recorder)
        XCTAssertEqual(upstream.subscriptionCount, 3)
        XCTAssertEqual(recorder.events, [.subscription, .value(42), .completion(.finished)])
    }

    func testUnlimitedRetries() {
        let upstream = ScriptedPublisher<Int, TestError> { publisher in
            if publisher.subscriptionCount <= 50 {
                publisher.send(completion: .failure(.boom))
            } else {
                publisher.send(completion: .finished)
            }
        }
        let recorder = Recorder<Int, TestError>()
        Publishers.Retry(upstream: upstream, retries: nil).subscribe(recorder)
        XCTAssertEqual(upstream.subscriptionCount, 51)
        XCTAssertEqual(recorder.completions, [.finished])
    }

    func testSynchronousFailuresLoopInsteadOfRecursing() {
        let recorder = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).retry(100_000).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testCancelStopsRetryingAndReleases() {
        let upstream = ScriptedPublisher<Int, TestError>()
        weak var weakRecorder: Recorder<Int, TestError>?
        do {
            let recorder = Recorder<Int, TestError>()
            weakRecorder = recorder
            upstream.retry(3).subscribe(recorder)
            upstream.send(completion: .failure(.boom))
            recorder.cancel()
            upstream.send(completion: .failure(.boom))
            XCTAssertEqual(recorder.events, [.subscription])
        }
        XCTAssertEqual(upstream.subscriptionCount, 2, "no retry after cancel")
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .requested(.unlimited), .cancelled])
        XCTAssertFalse(upstream.hasSubscriber)
        XCTAssertNil(weakRecorder)
    }

    func testRetryThenCatchAsInTheBook() {
        let upstream = alwaysFailing()
        let recorder = Recorder<Int, Never>()
        upstream.retry(2).catch { _ in Just(-1) }.subscribe(recorder)
        XCTAssertEqual(upstream.subscriptionCount, 3)
        XCTAssertEqual(recorder.events, [.subscription, .value(-1), .completion(.finished)])
    }
}

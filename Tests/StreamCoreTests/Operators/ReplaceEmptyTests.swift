import StreamCore
import XCTest

final class ReplaceEmptyTests: XCTestCase {
    func testEmptyStreamGetsTheReplacement() {
        let recorder = Recorder<Int, Never>()
        Empty<Int, Never>().replaceEmpty(with: 42).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(42), .completion(.finished)])
    }

    func testNonEmptyStreamIsUnchanged() {
        let recorder = Recorder<Int, Never>()
        [1, 2].publisher.replaceEmpty(with: 42).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testFailureIsNotReplaced() {
        let recorder = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).replaceEmpty(with: 42).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testEmptyBeforeAnyRequestWaitsForDemand() {
        let upstream = ScriptedPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        upstream.replaceEmpty(with: 42).subscribe(recorder)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(42), .completion(.finished)])
    }

    func testDemandPassesThroughUnchanged() {
        let upstream = ScriptedPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2), demandPerValue: .none)
        upstream.replaceEmpty(with: 42).subscribe(recorder)
        recorder.request(.max(3))
        XCTAssertEqual(upstream.events, [.requested(.max(2)), .requested(.max(3))], "no extra demand upstream")
    }

    func testCancelPropagatesAndReleasesDownstream() {
        let upstream = ScriptedPublisher<Int, Never>()
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            upstream.replaceEmpty(with: 1).subscribe(recorder)
            recorder.cancel()
            upstream.send(completion: .finished)
            XCTAssertEqual(recorder.events, [.subscription])
        }
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertNil(weakRecorder)
    }
}

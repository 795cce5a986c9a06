import StreamCore
import XCTest

final class ReplaceErrorTests: XCTestCase {
    func testKeepsValuesThenReplacesErrorAndFinishes() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let recorder = Recorder<Int, Never>()
        upstream.replaceError(with: 0).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.boom))
        upstream.send(3)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(0), .completion(.finished)])
    }

    func testFinishedPassesThroughWithoutReplacement() {
        let recorder = Recorder<Int, Never>()
        [1].publisher.setFailureType(to: TestError.self).replaceError(with: 0).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testErrorWithoutDemandWaitsForRequest() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .none)
        upstream.replaceError(with: 0).subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .value(1)], "the demand was used up")
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(0), .completion(.finished)])
        XCTAssertEqual(upstream.events, [.requested(.max(1))], "a failed upstream is not asked again")
    }

    func testImmediateFailureWithNoDemandYet() {
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        Fail<Int, TestError>(error: .boom).replaceError(with: 9).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(3))
        XCTAssertEqual(recorder.events, [.subscription, .value(9), .completion(.finished)])
    }

    func testCancelPropagatesAndReleasesDownstream() {
        let upstream = ScriptedPublisher<Int, TestError>()
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            upstream.replaceError(with: 0).subscribe(recorder)
            recorder.cancel()
            upstream.send(completion: .failure(.boom))
            XCTAssertEqual(recorder.events, [.subscription])
        }
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertNil(weakRecorder)
    }
}

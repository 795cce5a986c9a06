import StreamCore
import XCTest

final class IgnoreOutputTests: XCTestCase {
    func testDropsValuesAndForwardsCompletion() {
        let recorder = Recorder<Never, Never>(initialDemand: .none)
        (1...5).publisher.ignoreOutput().subscribe(recorder)
        XCTAssertEqual(recorder.completions, [.finished], "values are consumed without any downstream demand")
        XCTAssertEqual(recorder.subscriptionCount, 1)
    }

    func testForwardsFailureAndRequestsUnlimited() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let recorder = Recorder<Never, TestError>(initialDemand: .none)
        upstream.ignoreOutput().subscribe(recorder)
        XCTAssertEqual(upstream.send(1), .none)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.completions, [.failure(.boom)])
        XCTAssertEqual(upstream.events, [.requested(.unlimited)])
    }

    func testCancelReachesUpstream() {
        let upstream = ScriptedPublisher<Int, Never>()
        let recorder = Recorder<Never, Never>()
        upstream.ignoreOutput().subscribe(recorder)
        recorder.cancel()
        XCTAssertFalse(upstream.hasSubscriber)
        XCTAssertEqual(upstream.events.last, .cancelled)
    }
}

import StreamCore
import XCTest

final class AssertNoFailureTests: XCTestCase {
    // A failure traps (fatalError), which XCTest cannot observe; only the pass-through is tested.
    func testPassesValuesDemandAndFinished() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        (1...3).publisher.setFailureType(to: TestError.self).assertNoFailure("never").subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testCancelReachesUpstream() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let recorder = Recorder<Int, Never>()
        upstream.assertNoFailure().subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        XCTAssertEqual(recorder.values, [1])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
    }
}

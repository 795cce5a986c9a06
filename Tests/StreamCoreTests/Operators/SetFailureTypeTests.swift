import StreamCore
import XCTest

final class SetFailureTypeTests: XCTestCase {
    func testChangesOnlyTheType() {
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        let publisher: Publishers.SetFailureType<Publishers.Sequence<[Int], Never>, TestError> =
            [1, 2].publisher.setFailureType(to: TestError.self)
        publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testComposesWithFailingOperators() {
        let recorder = Recorder<Int, TestError>()
        Just(1).setFailureType(to: TestError.self)
            .setFailureType(to: TestError.self)
            .catch { _ in Just(0).setFailureType(to: TestError.self) }
            .subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }
}

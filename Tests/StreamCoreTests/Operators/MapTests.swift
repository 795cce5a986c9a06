import StreamCore
import XCTest

final class MapTests: XCTestCase {
    func testTransformsValuesAndKeepsCompletion() {
        let recorder = Recorder<String, Never>()
        [1, 2, 3].publisher.map { "\($0 * 10)" }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value("10"), .value("20"), .value("30"), .completion(.finished)])
    }

    func testHonoursDemand() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.map { $0 + 1 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [2, 3])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [2, 3, 4])
    }

    func testFusedMapsCompose() {
        let recorder = Recorder<Int, Never>()
        [1].publisher.map { $0 + 1 }.map { $0 * 3 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [6])
    }
}

final class FilterTests: XCTestCase {
    func testDropsRejectedValuesWithoutLosingDemand() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(3))
        (1...20).publisher.filter { $0 % 4 == 0 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [4, 8, 12], "each dropped value is replaced by a new request upstream")
    }

    func testFailurePassesThrough() {
        let recorder = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).filter { _ in true }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }
}

import StreamCore
import XCTest

final class TryMapTests: XCTestCase {
    func testTransformsValuesAndFinishes() {
        let recorder = Recorder<String, Error>()
        [1, 2, 3].publisher.tryMap { "\($0 * 10)" }.subscribe(recorder)
        XCTAssertEqual(recorder.values, ["10", "20", "30"])
        XCTAssertEqual(recorder.completionSummary, ["finished"])
    }

    func testThrowFailsAndCancelsUpstream() {
        let upstream = ScriptedPublisher<Int, Never>()
        let recorder = Recorder<Int, Error>()
        upstream.tryMap { value -> Int in
            if value == 2 { throw TestError.boom }
            return value
        }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        XCTAssertEqual(recorder.values, [1])
        XCTAssertEqual(recorder.completionSummary, ["failure(boom)"])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
    }

    func testHonoursDemandAndForwardsUpstreamFailure() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let recorder = Recorder<Int, Error>(initialDemand: .max(2), demandPerValue: .none)
        upstream.tryMap { $0 + 1 }.subscribe(recorder)
        recorder.request(.max(3))
        XCTAssertEqual(upstream.events, [.requested(.max(2)), .requested(.max(3))])
        upstream.send(1)
        upstream.send(completion: .failure(.other(7)))
        XCTAssertEqual(recorder.values, [2])
        XCTAssertEqual(recorder.completionSummary, ["failure(other(7))"])
    }

    func testFusions() {
        let recorder = Recorder<Int, Error>()
        [1].publisher.map { $0 + 1 }.tryMap { $0 * 3 }.map { $0 - 1 }.tryMap { $0 * 2 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [10])
    }
}

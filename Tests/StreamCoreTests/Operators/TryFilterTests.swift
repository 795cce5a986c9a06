import StreamCore
import XCTest

final class TryFilterTests: XCTestCase {
    func testDropsRejectedValuesWithoutLosingDemand() {
        let recorder = Recorder<Int, Error>(initialDemand: .max(2))
        (1...10).publisher.tryFilter { $0 % 3 == 0 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [3, 6])
        recorder.request(.unlimited)
        XCTAssertEqual(recorder.values, [3, 6, 9])
        XCTAssertEqual(recorder.completionSummary, ["finished"])
    }

    func testThrowFailsAndCancelsUpstream() {
        let upstream = ScriptedPublisher<Int, Never>()
        let recorder = Recorder<Int, Error>()
        upstream.tryFilter { value in
            if value > 2 { throw TestError.boom }
            return true
        }.subscribe(recorder)
        (1...4).forEach { upstream.send($0) }
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertEqual(recorder.completionSummary, ["failure(boom)"])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
    }

    func testFusions() {
        let recorder = Recorder<Int, Error>()
        (1...12).publisher.filter { $0 % 2 == 0 }.tryFilter { $0 % 3 == 0 }.filter { $0 > 6 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [12])
    }
}

import StreamCore
import XCTest

final class ScanTests: XCTestCase {
    func testPublishesEveryPartialResult() {
        let recorder = Recorder<Int, Never>()
        (1...4).publisher.scan(0, +).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(3), .value(6), .value(10), .completion(.finished)])
    }

    func testHonoursDemandAndKeepsAccumulating() {
        let recorder = Recorder<[Int], Never>(initialDemand: .max(2))
        (1...4).publisher.scan([]) { $0 + [$1] }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [[1], [1, 2]])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values.last, [1, 2, 3])
    }

    func testEmptyAndFailingUpstreams() {
        let empty = Recorder<Int, Never>()
        Empty<Int, Never>().scan(5, +).subscribe(empty)
        XCTAssertEqual(empty.events, [.subscription, .completion(.finished)], "the initial result is not published")

        let failing = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).scan(0, +).subscribe(failing)
        XCTAssertEqual(failing.events, [.subscription, .completion(.failure(.boom))])
    }

    func testEachSubscriptionStartsFromTheInitialResult() {
        let scan = [1, 2].publisher.scan(10, +)
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        scan.subscribe(first)
        scan.subscribe(second)
        XCTAssertEqual(first.values, [11, 13])
        XCTAssertEqual(second.values, [11, 13])
    }
}

final class TryScanTests: XCTestCase {
    func testAccumulatesAndFailsOnThrow() {
        let upstream = ScriptedPublisher<Int, Never>()
        let recorder = Recorder<Int, Error>()
        upstream.tryScan(0) { sum, value in
            if value < 0 { throw TestError.other(value) }
            return sum + value
        }.subscribe(recorder)
        upstream.send(2)
        upstream.send(3)
        upstream.send(-1)
        upstream.send(4)
        XCTAssertEqual(recorder.values, [2, 5])
        XCTAssertEqual(recorder.completionSummary, ["failure(other(-1))"])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
    }

    func testFinishes() {
        let recorder = Recorder<Int, Error>()
        (1...3).publisher.tryScan(0, +).subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 3, 6])
        XCTAssertEqual(recorder.completionSummary, ["finished"])
    }
}

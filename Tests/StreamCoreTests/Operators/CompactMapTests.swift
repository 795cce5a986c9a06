import StreamCore
import XCTest

final class CompactMapTests: XCTestCase {
    func testDropsNilWithoutLosingDemand() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        ["1", "x", "y", "2", "3"].publisher.compactMap { Int($0) }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2], "each nil is replaced by a new request upstream")
        recorder.request(.max(5))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testPassesSubscriptionThroughSoCancelReachesUpstream() {
        let upstream = ScriptedPublisher<Int?, Never>()
        let recorder = Recorder<Int, Never>()
        upstream.compactMap { $0 }.subscribe(recorder)
        XCTAssertEqual(upstream.send(nil), .max(1))
        upstream.send(4)
        recorder.cancel()
        XCTAssertEqual(recorder.values, [4])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
    }

    func testFailurePassesThrough() {
        let recorder = Recorder<Int, TestError>()
        Fail<Int?, TestError>(error: .boom).compactMap { $0 }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testFusions() {
        let recorder = Recorder<Int, Never>()
        (1...6).publisher.compactMap { $0 % 2 == 0 ? $0 : nil }.compactMap { $0 > 2 ? $0 : nil }.map { $0 * 10 }
            .subscribe(recorder)
        XCTAssertEqual(recorder.values, [40, 60])
    }
}

final class TryCompactMapTests: XCTestCase {
    func testDropsNilAndFailsOnThrow() {
        let upstream = ScriptedPublisher<String, Never>()
        let recorder = Recorder<Int, Error>()
        upstream.tryCompactMap { text -> Int? in
            if text == "!" { throw TestError.boom }
            return Int(text)
        }.subscribe(recorder)
        upstream.send("1")
        XCTAssertEqual(upstream.send("x"), .max(1))
        upstream.send("!")
        upstream.send("2")
        XCTAssertEqual(recorder.values, [1])
        XCTAssertEqual(recorder.completionSummary, ["failure(boom)"])
        XCTAssertEqual(upstream.events.last, .cancelled)
    }

    func testHonoursDemand() {
        let recorder = Recorder<Int, Error>(initialDemand: .max(1))
        [nil, nil, 5, 6].publisher.tryCompactMap { $0 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [5])
        XCTAssertEqual(recorder.completionSummary, [])
    }
}

final class ReplaceNilTests: XCTestCase {
    func testReplacesNil() {
        let recorder = Recorder<Int, Never>()
        [1, nil, 3].publisher.replaceNil(with: 0).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(0), .value(3), .completion(.finished)])
    }
}

import StreamCore
import XCTest

final class ContainsTests: XCTestCase {
    func testMatchEmitsTrueCancelsUpstreamAndIgnoresLaterValues() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Bool, TestError>()
        upstream.contains(3).subscribe(recorder)
        upstream.send(1)
        upstream.send(3)
        XCTAssertEqual(recorder.events, [.subscription, .value(true), .completion(.finished)])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        upstream.send(3)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .value(true), .completion(.finished)])
    }

    func testNoMatchEmitsFalseOnFinish() {
        let recorder = Recorder<Bool, Never>()
        [1, 2].publisher.contains(5).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(false), .completion(.finished)])
    }

    func testEmptyUpstreamEmitsFalse() {
        let recorder = Recorder<Bool, Never>()
        Empty<Int, Never>().contains(1).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(false), .completion(.finished)])
    }

    func testMatchWithoutDemandWaitsForIt() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Bool, Never>(initialDemand: .none)
        subject.contains(1).subscribe(recorder)
        subject.send(1)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(true), .completion(.finished)])
    }

    func testFailureBeforeMatchPropagates() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Bool, TestError>()
        subject.contains(1).subscribe(recorder)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.contains(1) }
    }
}

final class ContainsWhereTests: XCTestCase {
    func testMatchAndNoMatch() {
        let hit = Recorder<Bool, Never>()
        (1...10).publisher.contains { $0 > 4 }.subscribe(hit)
        XCTAssertEqual(hit.events, [.subscription, .value(true), .completion(.finished)])
        let miss = Recorder<Bool, Never>()
        (1...3).publisher.contains { $0 > 4 }.subscribe(miss)
        XCTAssertEqual(miss.events, [.subscription, .value(false), .completion(.finished)])
    }

    func testStopsEvaluatingAfterMatch() {
        var evaluated: [Int] = []
        let recorder = Recorder<Bool, Never>()
        (1...10).publisher.contains { evaluated.append($0); return $0 == 2 }.subscribe(recorder)
        XCTAssertEqual(evaluated, [1, 2])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.contains { $0 > 1 } }
    }
}

final class TryContainsWhereTests: XCTestCase {
    func testMatch() {
        let recorder = Recorder<Bool, Error>()
        (1...10).publisher.tryContains { $0 == 4 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [true])
        XCTAssertEqual(testError(recorder.completions), [nil])
    }

    func testThrowCancelsUpstreamAndFails() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Bool, Error>()
        upstream.tryContains { if $0 == 2 { throw TestError.boom }; return false }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.values, [])
        XCTAssertEqual(testError(recorder.completions), [.boom])
    }

    func testEmptyUpstreamEmitsFalse() {
        let recorder = Recorder<Bool, Error>()
        Empty<Int, TestError>().tryContains { _ in true }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [false])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.tryContains { _ in false } }
    }

    /// The book: "If the operator receives a .failure completion from the upstream publisher …
    /// no data values will be published", only the failure.
    func testUpstreamFailureIsForwardedWithoutAValue() {
        let upstream = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Bool, Error>()
        upstream.tryContains { $0 == 9 }.subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.values, [])
        XCTAssertEqual(testError(recorder.completions), [.boom])
    }
}

final class AllSatisfyTests: XCTestCase {
    func testAllMatchEmitsTrueOnFinish() {
        let recorder = Recorder<Bool, Never>()
        [2, 4, 6].publisher.allSatisfy { $0.isMultiple(of: 2) }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(true), .completion(.finished)])
    }

    func testFirstMismatchEmitsFalseAndCancelsUpstream() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Bool, TestError>()
        upstream.allSatisfy { $0 < 3 }.subscribe(recorder)
        upstream.send(1)
        XCTAssertEqual(recorder.events, [.subscription])
        upstream.send(5)
        XCTAssertEqual(recorder.events, [.subscription, .value(false), .completion(.finished)])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        upstream.send(1)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events.count, 3)
    }

    func testEmptyUpstreamEmitsTrue() {
        let recorder = Recorder<Bool, Never>()
        Empty<Int, Never>().allSatisfy { _ in false }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(true), .completion(.finished)])
    }

    func testFailurePropagates() {
        let recorder = Recorder<Bool, TestError>()
        Fail<Int, TestError>(error: .boom).allSatisfy { _ in true }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.allSatisfy { $0 > 0 } }
    }
}

final class TryAllSatisfyTests: XCTestCase {
    func testValues() {
        let yes = Recorder<Bool, Error>()
        [1, 2].publisher.tryAllSatisfy { $0 > 0 }.subscribe(yes)
        XCTAssertEqual(yes.values, [true])
        let no = Recorder<Bool, Error>()
        [1, -2, 3].publisher.tryAllSatisfy { $0 > 0 }.subscribe(no)
        XCTAssertEqual(no.values, [false])
    }

    func testThrowFailsWithoutValue() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Bool, Error>()
        upstream.tryAllSatisfy { if $0 == 0 { throw TestError.other(0) }; return true }.subscribe(recorder)
        upstream.send(1)
        upstream.send(0)
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.values, [])
        XCTAssertEqual(testError(recorder.completions), [.other(0)])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.tryAllSatisfy { _ in true } }
    }

    /// The book: on an upstream .failure "the operator will only … forward the .failure completion".
    func testUpstreamFailureIsForwardedWithoutAValue() {
        let upstream = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Bool, Error>()
        upstream.tryAllSatisfy { $0 > 0 }.subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.other(2)))
        XCTAssertEqual(recorder.values, [])
        XCTAssertEqual(testError(recorder.completions), [.other(2)])
    }
}

import StreamCore
import XCTest

final class FirstTests: XCTestCase {
    func testFirstValueFinishesAndCancelsUpstream() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.first().subscribe(recorder)
        upstream.send(7)
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.finished)])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        upstream.send(8)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.finished)])
    }

    func testEmptyUpstreamJustFinishes() {
        let recorder = Recorder<Int, Never>()
        Empty<Int, Never>().first().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testWaitsForDemand() {
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        [1, 2].publisher.first().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testFailureBeforeValuePropagates() {
        let recorder = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).first().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.first() }
    }
}

final class FirstWhereTests: XCTestCase {
    func testFirstMatchingValue() {
        let upstream = ScriptedPublisher<String, TestError>(keepsSubscriber: true)
        let recorder = Recorder<String, TestError>()
        upstream.first { $0.count > 3 }.subscribe(recorder)
        upstream.send("abc")
        XCTAssertEqual(recorder.events, [.subscription])
        upstream.send("hello")
        upstream.send("world")
        XCTAssertEqual(recorder.events, [.subscription, .value("hello"), .completion(.finished)])
        XCTAssertEqual(upstream.cancelCount, 1)
    }

    func testNoMatchJustFinishes() {
        let recorder = Recorder<Int, Never>()
        [1, 2].publisher.first { $0 > 5 }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.first { $0 > 1 } }
    }
}

final class TryFirstWhereTests: XCTestCase {
    func testMatchAndThrow() {
        let hit = Recorder<Int, Error>()
        (1...5).publisher.tryFirst { $0 > 2 }.subscribe(hit)
        XCTAssertEqual(hit.values, [3])
        XCTAssertEqual(testError(hit.completions), [nil])

        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let boom = Recorder<Int, Error>()
        upstream.tryFirst { if $0 == 0 { throw TestError.boom }; return false }.subscribe(boom)
        upstream.send(1)
        upstream.send(0)
        upstream.send(2)
        XCTAssertEqual(boom.values, [])
        XCTAssertEqual(testError(boom.completions), [.boom])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.tryFirst { _ in false } }
    }
}

final class LastTests: XCTestCase {
    func testLastValueOnlyOnFinish() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.last().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(recorder.events, [.subscription])
        subject.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(2), .completion(.finished)])
    }

    func testEmptyUpstreamJustFinishes() {
        let recorder = Recorder<Int, Never>()
        Empty<Int, Never>().last().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testFailureDropsLastValue() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.last().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testCancelPropagates() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.last().subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        upstream.send(completion: .finished)
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.last() }
    }
}

final class LastWhereTests: XCTestCase {
    func testLastMatchingValue() {
        let recorder = Recorder<String, Never>()
        ["abc", "hello", "world", "xy"].publisher.last { $0.count > 3 }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value("world"), .completion(.finished)])
    }

    func testNoMatchJustFinishes() {
        let recorder = Recorder<Int, Never>()
        [1, 2].publisher.last { $0 > 5 }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.last { $0 > 1 } }
    }
}

final class TryLastWhereTests: XCTestCase {
    func testMatchAndThrow() {
        let hit = Recorder<Int, Error>()
        (1...5).publisher.tryLast { $0 < 3 }.subscribe(hit)
        XCTAssertEqual(hit.values, [2])

        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let boom = Recorder<Int, Error>()
        upstream.tryLast { if $0 == 0 { throw TestError.boom }; return true }.subscribe(boom)
        upstream.send(1)
        upstream.send(0)
        upstream.send(completion: .finished)
        XCTAssertEqual(boom.values, [])
        XCTAssertEqual(testError(boom.completions), [.boom])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.tryLast { _ in true } }
    }
}

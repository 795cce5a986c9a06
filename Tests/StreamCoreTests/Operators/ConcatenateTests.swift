import StreamCore
import XCTest

final class ConcatenateTests: XCTestCase {
    func testAppendAndPrependForms() {
        let values = Recorder<Int, Never>()
        [1, 2].publisher.append(3, 4).subscribe(values)
        XCTAssertEqual(values.events, [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])

        let sequence = Recorder<Int, Never>()
        Just(3).prepend([1, 2]).append(4...5).subscribe(sequence)
        XCTAssertEqual(sequence.values, [1, 2, 3, 4, 5])

        let publisher = Recorder<Int, Never>()
        Just(2).prepend(Just(1)).append(Just(3)).prepend(0).subscribe(publisher)
        XCTAssertEqual(publisher.values, [0, 1, 2, 3])
        XCTAssertEqual(publisher.completions.count, 1)
    }

    func testSuffixSubscribedOnlyAfterPrefixFinishesWithDemandCarriedOver() {
        let prefix = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let suffix = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>(initialDemand: .max(10), demandPerValue: { .max($0) })
        prefix.append(suffix).subscribe(recorder)
        XCTAssertEqual(prefix.requests, [.max(10)])
        XCTAssertEqual(suffix.events, [])
        XCTAssertEqual(prefix.send(1), .max(1))
        XCTAssertEqual(suffix.send(-1), .none, "the suffix is not subscribed yet")
        XCTAssertEqual(prefix.send(2), .max(2))
        XCTAssertEqual(prefix.send(3), .max(3))
        prefix.send(completion: .finished)
        XCTAssertEqual(suffix.requests, [.max(13)], "10 requested - 3 delivered + 6 returned")
        XCTAssertEqual(prefix.send(100), .none, "the finished prefix is ignored")
        XCTAssertEqual(suffix.send(5), .max(5))
        suffix.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .value(5), .completion(.finished)])
        XCTAssertEqual(prefix.events, [.requested(.max(10))])
    }

    func testNoDemandLeftMeansSuffixWaitsForRequest() {
        let prefix = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let suffix = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1), demandPerValue: .none)
        prefix.append(suffix).subscribe(recorder)
        prefix.send(1)
        prefix.send(completion: .finished)
        XCTAssertEqual(suffix.requests, [], "subscribed, but nothing is owed")
        recorder.request(.max(2))
        XCTAssertEqual(suffix.requests, [.max(2)])
    }

    func testDemandHonouredAcrossSequences() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(3), demandPerValue: .none)
        [1, 2].publisher.append(3, 4, 5).subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2, 3])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1, 2, 3, 4])
        XCTAssertTrue(recorder.completions.isEmpty)
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events.suffix(2), [.value(5), .completion(.finished)])
    }

    func testPrefixFailureSkipsSuffix() {
        let suffix = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).append(suffix).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
        XCTAssertEqual(suffix.events, [])
    }

    func testSuffixFailurePropagates() {
        let recorder = Recorder<Int, TestError>()
        Publishers.Sequence<[Int], TestError>(sequence: [1]).append(Fail(error: .boom)).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.failure(.boom))])
    }

    /// The book on prepend: "all values will be published from the prefix publisher even if the
    /// suffix publisher receives a .failure completion before it is complete. Once the prefix
    /// publisher completes, the error will be propagated."
    func testSuffixFailingEarlyArrivesOnlyAfterThePrefixsValues() {
        let prefix = PassthroughSubject<Int, TestError>()
        let suffix = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        suffix.prepend(prefix).subscribe(recorder)
        prefix.send(1)
        suffix.send(completion: .failure(.boom))
        prefix.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        prefix.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(.boom))])
    }

    func testCancelReachesCurrentPublisherOnly() {
        let prefix = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let suffix = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        prefix.append(suffix).subscribe(recorder)
        recorder.cancel()
        XCTAssertEqual(prefix.events, [.requested(.unlimited), .cancelled])
        prefix.send(1)
        prefix.send(completion: .finished)
        XCTAssertEqual(suffix.events, [], "the suffix is never subscribed after a cancel")
        XCTAssertEqual(recorder.events, [.subscription])

        let prefix2 = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let suffix2 = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder2 = Recorder<Int, TestError>()
        prefix2.append(suffix2).subscribe(recorder2)
        prefix2.send(completion: .finished)
        recorder2.cancel()
        XCTAssertEqual(suffix2.events, [.requested(.unlimited), .cancelled])
        suffix2.send(1)
        XCTAssertEqual(recorder2.events, [.subscription])
    }

    func testReleasesSuffixOnCancel() {
        final class Suffix: Publisher {
            typealias Output = Int
            typealias Failure = TestError
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {}
        }
        weak var weakSuffix: Suffix?
        let prefix = PassthroughSubject<Int, TestError>()
        let subscriber = ReleaseProbe<Int, TestError>()
        do {
            let suffix = Suffix()
            weakSuffix = suffix
            prefix.append(suffix).subscribe(subscriber)
        }
        XCTAssertNotNil(weakSuffix)
        subscriber.cancel()
        XCTAssertNil(weakSuffix)
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.append(1, 2) }
        assertReleasedAfterCancel { $0.prepend(Empty()) }
    }
}

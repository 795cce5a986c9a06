import StreamCore
import XCTest

final class OutputTests: XCTestCase {
    func testOperatorsBuildRanges() {
        let upstream = Empty<Int, Never>()
        XCTAssertEqual(upstream.prefix(3).range, 0..<3)
        XCTAssertEqual(upstream.output(at: 4).range, 4..<5)
        XCTAssertEqual(upstream.output(in: 2...3).range, 2..<4)
        XCTAssertEqual(upstream.output(in: 2...).range, 2..<Int.max)
    }

    func testPrefixFinishesAndCancelsUpstreamAfterLastValue() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.prefix(2).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(upstream.send(3), .none)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events.count, 4, "nothing after the completion")
    }

    func testPrefixOfSubject() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.prefix(2).subscribe(recorder)
        (1...5).forEach(subject.send)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testOutputInSkipsWithoutUsingDemand() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>(initialDemand: .max(2), demandPerValue: .none)
        upstream.output(in: 3..<7).subscribe(recorder)
        XCTAssertEqual(upstream.requests, [.max(2)])
        XCTAssertEqual((0..<3).map(upstream.send), [.max(1), .max(1), .max(1)])
        XCTAssertEqual(upstream.send(3), .none)
        XCTAssertEqual(upstream.send(4), .none)
        XCTAssertEqual(recorder.values, [3, 4])
    }

    func testOutputAtFromSequenceHonoursDemand() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .none)
        (0..<10).publisher.output(in: 2...5).subscribe(recorder)
        XCTAssertEqual(recorder.values, [2])
        recorder.request(.max(2))
        XCTAssertEqual(recorder.values, [2, 3, 4])
        XCTAssertTrue(recorder.completions.isEmpty)
        recorder.request(.max(5))
        XCTAssertEqual(recorder.events.suffix(2), [.value(5), .completion(.finished)])

        let single = Recorder<Int, Never>()
        (0..<10).publisher.output(at: 3).subscribe(single)
        XCTAssertEqual(single.events, [.subscription, .value(3), .completion(.finished)])
    }

    func testUpstreamEndingBeforeRangeJustCompletes() {
        let finished = Recorder<Int, Never>()
        [1, 2].publisher.output(at: 5).subscribe(finished)
        XCTAssertEqual(finished.events, [.subscription, .completion(.finished)])
        let failed = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).prefix(3).subscribe(failed)
        XCTAssertEqual(failed.events, [.subscription, .completion(.failure(.boom))])
    }

    func testEmptyRangeFinishesAtFirstValue() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.prefix(0).subscribe(recorder)
        subject.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.prefix(3) }
        assertReleasedAfterCancel { $0.output(at: 1) }
    }
}

final class PrefixWhileTests: XCTestCase {
    func testRepublishesWhilePredicateHoldsThenFinishes() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.prefix { $0 < 3 }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        upstream.send(1)
        XCTAssertEqual(recorder.events.count, 4)
    }

    func testDemandPassesThrough() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(2), demandPerValue: .none)
        (1...10).publisher.prefix { $0 < 8 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2])
        recorder.request(.max(10))
        XCTAssertEqual(recorder.values, Array(1...7))
        XCTAssertEqual(recorder.completions.count, 1)
    }

    func testEmptyAndFailure() {
        let empty = Recorder<Int, Never>()
        Empty<Int, Never>().prefix { _ in true }.subscribe(empty)
        XCTAssertEqual(empty.events, [.subscription, .completion(.finished)])
        let failed = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).prefix { _ in true }.subscribe(failed)
        XCTAssertEqual(failed.events, [.subscription, .completion(.failure(.boom))])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.prefix { $0 < 3 } }
    }
}

final class TryPrefixWhileTests: XCTestCase {
    func testValuesAndThrow() {
        let ok = Recorder<Int, Error>()
        (1...5).publisher.tryPrefix { $0 < 3 }.subscribe(ok)
        XCTAssertEqual(ok.values, [1, 2])
        XCTAssertEqual(testError(ok.completions), [nil])

        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let boom = Recorder<Int, Error>()
        upstream.tryPrefix { if $0 == 2 { throw TestError.boom }; return true }.subscribe(boom)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        XCTAssertEqual(boom.values, [1])
        XCTAssertEqual(testError(boom.completions), [.boom])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.tryPrefix { _ in true } }
    }
}

final class PrefixUntilOutputTests: XCTestCase {
    func testRepublishesUntilTriggerEmits() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let trigger = ScriptedPublisher<String, Never>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>(initialDemand: .max(3), demandPerValue: .max(2))
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        XCTAssertEqual(trigger.requests, [.max(1)])
        XCTAssertEqual(upstream.requests, [.max(3)])
        XCTAssertEqual(upstream.send(1), .max(2))
        XCTAssertEqual(upstream.send(2), .max(2))
        XCTAssertEqual(trigger.send("stop"), .none)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(upstream.events, [.requested(.max(3)), .cancelled])
        XCTAssertEqual(upstream.send(3), .none)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events.count, 4)
    }

    func testTriggerCompletingWithoutValueChangesNothing() {
        let upstream = PassthroughSubject<Int, TestError>()
        let trigger = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        trigger.send(completion: .failure(.boom))
        upstream.send(1)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testUpstreamCompletionCancelsTrigger() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let trigger = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(trigger.events, [.requested(.max(1)), .cancelled])
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
        trigger.send(1)
        XCTAssertEqual(recorder.events.count, 2)
    }

    func testCancelCancelsUpstreamThenTrigger() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let trigger = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        recorder.cancel()
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(trigger.events, [.requested(.max(1)), .cancelled])
        trigger.send(1)
        upstream.send(1)
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testReleasedAfterCancel() {
        let trigger = PassthroughSubject<Void, Never>()
        assertReleasedAfterCancel { $0.prefix(untilOutputFrom: trigger) }
    }

    func testOnVirtualTime() {
        assertMarbles(input: "ab-c-d|", expected: "ab-c|") { upstream, scheduler in
            let stop = PassthroughSubject<Void, Never>()
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(400))) { stop.send(()) }
            return upstream.prefix(untilOutputFrom: stop).eraseToAnyPublisher()
        }
    }
}

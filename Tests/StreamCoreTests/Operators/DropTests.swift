import StreamCore
import XCTest

final class DropTests: XCTestCase {
    func testDropsFirstCount() {
        let recorder = Recorder<Int, Never>()
        (1...5).publisher.dropFirst(2).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(3), .value(4), .value(5), .completion(.finished)])
        let one = Recorder<Int, Never>()
        (1...3).publisher.dropFirst().subscribe(one)
        XCTAssertEqual(one.values, [2, 3])
    }

    func testAsksUpstreamForDemandPlusDroppedCount() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>(initialDemand: .max(2), demandPerValue: .none)
        upstream.dropFirst(3).subscribe(recorder)
        XCTAssertEqual(upstream.requests, [.max(5)])
        XCTAssertEqual((1...3).map(upstream.send), [.none, .none, .none])
        upstream.send(4)
        upstream.send(5)
        XCTAssertEqual(recorder.values, [4, 5])
        recorder.request(.max(1))
        XCTAssertEqual(upstream.requests, [.max(5), .max(1)])
    }

    func testDemandHonouredFromSequence() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(2), demandPerValue: .none)
        (1...10).publisher.dropFirst(3).subscribe(recorder)
        XCTAssertEqual(recorder.values, [4, 5])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [4, 5, 6])
    }

    func testUpstreamShorterThanCountJustFinishes() {
        let recorder = Recorder<Int, Never>()
        [1, 2].publisher.dropFirst(5).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testFailurePropagates() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.dropFirst().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .value(2), .completion(.failure(.boom))])
    }

    func testCancelPropagatesAndLaterSendsAreIgnored() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.dropFirst(0).subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(upstream.send(2), .none)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.dropFirst(2) }
    }
}

final class DropWhileTests: XCTestCase {
    func testDropsUntilPredicateFailsThenPassesEverything() {
        let recorder = Recorder<Int, Never>()
        [1, 2, 5, 1, 6].publisher.drop { $0 < 3 }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .value(1), .value(6), .completion(.finished)])
    }

    func testDroppedValuesDoNotUseUpDemand() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1), demandPerValue: .none)
        upstream.drop { $0 < 3 }.subscribe(recorder)
        XCTAssertEqual(upstream.send(1), .max(1))
        XCTAssertEqual(upstream.send(2), .max(1))
        XCTAssertEqual(upstream.send(3), .none)
        XCTAssertEqual(recorder.values, [3])
    }

    func testStopsEvaluatingOnceTriggered() {
        var evaluated: [Int] = []
        let recorder = Recorder<Int, Never>()
        [1, 5, 1, 2].publisher.drop { evaluated.append($0); return $0 < 3 }.subscribe(recorder)
        XCTAssertEqual(evaluated, [1, 5])
        XCTAssertEqual(recorder.values, [5, 1, 2])
    }

    func testEachSubscriptionStartsDropping() {
        let publisher = [1, 5, 1].publisher.drop { $0 < 3 }
        for _ in 0..<2 {
            let recorder = Recorder<Int, Never>()
            publisher.subscribe(recorder)
            XCTAssertEqual(recorder.values, [5, 1])
        }
    }

    func testFailurePropagates() {
        let recorder = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).drop { _ in true }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.drop { $0 < 3 } }
    }
}

final class TryDropWhileTests: XCTestCase {
    func testDropsThenPasses() {
        let recorder = Recorder<Int, Error>()
        [1, 2, 5, 1].publisher.tryDrop { $0 < 3 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [5, 1])
        XCTAssertEqual(testError(recorder.completions), [nil])
    }

    func testThrowWhileDroppingCancelsUpstreamAndFails() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, Error>()
        upstream.tryDrop { if $0 == 0 { throw TestError.boom }; return true }.subscribe(recorder)
        upstream.send(1)
        upstream.send(0)
        upstream.send(2)
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.values, [])
        XCTAssertEqual(testError(recorder.completions), [.boom])
    }

    func testUpstreamFailureIsForwarded() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, Error>()
        subject.tryDrop { $0 < 3 }.subscribe(recorder)
        subject.send(4)
        subject.send(completion: .failure(.other(2)))
        XCTAssertEqual(recorder.values, [4])
        XCTAssertEqual(testError(recorder.completions), [.other(2)])
    }

    func testReleasedAfterCancel() {
        assertReleasedAfterCancel { $0.tryDrop { _ in true } }
    }
}

final class DropUntilOutputTests: XCTestCase {
    func testDropsUntilTriggerEmits() {
        let upstream = PassthroughSubject<Int, TestError>()
        let trigger = PassthroughSubject<Void, TestError>()
        let recorder = Recorder<Int, TestError>()
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        trigger.send(())
        upstream.send(3)
        trigger.send(())
        upstream.send(4)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(3), .value(4), .completion(.finished)])
    }

    func testDemandGoesStraightUpstreamAndTriggerIsAskedForOne() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let trigger = ScriptedPublisher<String, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>(initialDemand: .max(4), demandPerValue: .none)
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        XCTAssertEqual(trigger.requests, [.max(1)])
        XCTAssertEqual(upstream.requests, [.max(4)])
        XCTAssertEqual(upstream.send(1), .none, "a dropped value uses up demand, as in Combine")
        trigger.send("go")
        XCTAssertEqual(trigger.events, [.requested(.max(1)), .cancelled])
        upstream.send(2)
        XCTAssertEqual(recorder.values, [2])
    }

    func testTriggerFinishingFirstCancelsUpstreamAndFinishes() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let trigger = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        trigger.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        upstream.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testFailureFromEitherSidePropagates() {
        let upstream = PassthroughSubject<Int, TestError>()
        let trigger = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        trigger.send(completion: .failure(.other(1)))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.other(1)))])

        let upstream2 = PassthroughSubject<Int, TestError>()
        let recorder2 = Recorder<Int, TestError>()
        upstream2.drop(untilOutputFrom: PassthroughSubject<Int, TestError>()).subscribe(recorder2)
        upstream2.send(completion: .failure(.boom))
        XCTAssertEqual(recorder2.events, [.subscription, .completion(.failure(.boom))])
    }

    func testTriggerFailureAfterFiringIsIgnored() {
        let upstream = PassthroughSubject<Int, TestError>()
        let trigger = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        trigger.send(0)
        trigger.send(completion: .failure(.boom))
        upstream.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
    }

    func testCancelCancelsUpstreamThenTrigger() {
        let upstream = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let trigger = ScriptedPublisher<Int, TestError>(keepsSubscriber: true)
        let recorder = Recorder<Int, TestError>()
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        recorder.cancel()
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(trigger.events, [.requested(.max(1)), .cancelled])
        trigger.send(1)
        upstream.send(2)
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testReleasedAfterCancel() {
        let trigger = PassthroughSubject<Int, TestError>()
        assertReleasedAfterCancel { $0.drop(untilOutputFrom: trigger) }
    }
}

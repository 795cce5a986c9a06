import StreamCore
import XCTest

final class CatchTests: XCTestCase {
    /// The book's example: values before the failure are kept, the replacement takes over, and
    /// the original upstream is not listened to any more.
    func testReplacesTheFailedUpstream() {
        let subject = PassthroughSubject<String, TestError>()
        let recorder = Recorder<String, Never>()
        subject.catch { _ in Just("replacement value") }.subscribe(recorder)
        subject.send("oneValue")
        subject.send("twoValue")
        subject.send(completion: .failure(.boom))
        subject.send("redValue")
        subject.send(completion: .finished)
        XCTAssertEqual(recorder.events, [
            .subscription, .value("oneValue"), .value("twoValue"), .value("replacement value"), .completion(.finished),
        ])
    }

    func testSubscribesToTheReplacementOnceAndOnlyOnFailure() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let replacement = ScriptedPublisher<Int, Never>()
        var errors: [TestError] = []
        let recorder = Recorder<Int, Never>()
        upstream.catch { error -> ScriptedPublisher<Int, Never> in
            errors.append(error)
            return replacement
        }.subscribe(recorder)
        XCTAssertEqual(replacement.subscriptionCount, 0)
        upstream.send(1)
        upstream.send(completion: .failure(.other(1)))
        XCTAssertEqual(errors, [.other(1)])
        XCTAssertEqual(replacement.subscriptionCount, 1)
        XCTAssertEqual(upstream.subscriptionCount, 1, "catch replaces the upstream; it does not re-subscribe")
        replacement.send(2)
        replacement.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testUpstreamFinishingNeverCallsTheHandler() {
        let recorder = Recorder<Int, Never>()
        var calls = 0
        [1, 2].publisher.setFailureType(to: TestError.self)
            .catch { _ -> Just<Int> in calls += 1; return Just(0) }
            .subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(calls, 0)
    }

    /// 12 + 5 requested, 8 delivered, each adding 3: the replacement is asked for exactly 33.
    func testCarriesOverOutstandingDemandExactly() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let replacement = ScriptedPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(12), demandPerValue: .max(3))
        upstream.catch { _ in replacement }.subscribe(recorder)
        recorder.request(.max(5))
        for value in 1...8 {
            XCTAssertEqual(upstream.send(value), .max(3))
        }
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(upstream.events, [.requested(.max(12)), .requested(.max(5))])
        XCTAssertEqual(replacement.events, [.requested(.max(33))])
        recorder.request(.max(1))
        XCTAssertEqual(replacement.events, [.requested(.max(33)), .requested(.max(1))], "then requests pass through")
    }

    func testRequestsWhileSwitchingAreAddedToTheCarriedDemand() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let replacement = ScriptedPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(3), demandPerValue: .none)
        upstream.catch { _ -> ScriptedPublisher<Int, Never> in
            recorder.request(.max(10))
            return replacement
        }.subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(upstream.events, [.requested(.max(3))])
        XCTAssertEqual(replacement.events, [.requested(.max(12))])
    }

    func testNoDemandNoRequestAndReplacementHonoursLaterDemand() {
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        Fail<Int, TestError>(error: .boom).catch { _ in [7, 8, 9].publisher }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(2))
        XCTAssertEqual(recorder.values, [7, 8])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .value(8), .value(9), .completion(.finished)])
    }

    func testReplacementFailureEndsTheStream() {
        let recorder = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .boom).catch { _ in Fail<Int, TestError>(error: .other(2)) }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.other(2)))])
    }

    func testCancelBeforeFailureCancelsUpstreamAndNeverCallsHandler() {
        let upstream = ScriptedPublisher<Int, TestError>()
        var calls = 0
        let recorder = Recorder<Int, Never>()
        upstream.catch { _ -> Just<Int> in calls += 1; return Just(0) }.subscribe(recorder)
        recorder.cancel()
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(calls, 0)
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testCancelAfterRecoveryCancelsTheReplacementOnly() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let replacement = ScriptedPublisher<Int, Never>()
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            upstream.catch { _ in replacement }.subscribe(recorder)
            upstream.send(completion: .failure(.boom))
            recorder.cancel()
            replacement.send(5)
            XCTAssertEqual(recorder.events, [.subscription])
        }
        XCTAssertEqual(upstream.events, [.requested(.unlimited)])
        XCTAssertEqual(replacement.events, [.requested(.unlimited), .cancelled])
        XCTAssertFalse(replacement.hasSubscriber)
        XCTAssertNil(weakRecorder, "cancel releases the downstream")
    }

    func testCancelledSinkReleasesTheWholeChain() {
        final class Token {}
        let subject = PassthroughSubject<Int, TestError>()
        let replacement = PassthroughSubject<Int, Never>()
        weak var weakToken: Token?
        var received: [Int] = []
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = subject.catch { _ in replacement }.sink { _ = token; received.append($0) }
        }
        subject.send(1)
        subject.send(completion: .failure(.boom))
        replacement.send(2)
        cancellable?.cancel()
        cancellable = nil
        replacement.send(3)
        XCTAssertEqual(received, [1, 2])
        XCTAssertNil(weakToken)
    }
}

final class TryCatchTests: XCTestCase {
    func testReplacesTheUpstream() {
        let recorder = Recorder<Int, Error>()
        [1, 2, 3].publisher.tryMap { value -> Int in
            if value == 3 { throw TestError.boom }
            return value
        }.tryCatch { _ in Just(0) }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2, 0])
        XCTAssertEqual(recorder.completionSummary, ["finished"])
    }

    func testHandlerThrowingFailsTheStream() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let recorder = Recorder<Int, Error>()
        upstream.tryCatch { error -> Just<Int> in throw TestError.other(error == .boom ? 1 : 2) }.subscribe(recorder)
        upstream.send(4)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.values, [4])
        XCTAssertEqual(recorder.completionSummary, ["failure(other(1))"])
    }

    func testReplacementFailureIsErasedAndDemandCarriedOver() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let replacement = ScriptedPublisher<Int, TestError>()
        let recorder = Recorder<Int, Error>(initialDemand: .max(4), demandPerValue: .none)
        upstream.tryCatch { _ in replacement }.subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(replacement.events, [.requested(.max(3))])
        replacement.send(completion: .failure(.other(9)))
        XCTAssertEqual(recorder.completionSummary, ["failure(other(9))"])
    }
}

import Dispatch
import StreamCore
import XCTest

final class FutureTests: XCTestCase {
    func testRunsClosureImmediately() {
        var started = false
        _ = Future<Int, Never> { _ in started = true }
        XCTAssertTrue(started)
    }

    func testFulfilledBeforeSubscribeWaitsForDemand() {
        let future = Future<Int, Never> { promise in promise(.success(42)) }
        let recorder = Recorder<Int, Never>(initialDemand: .none)
        future.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(42), .completion(.finished)])
    }

    func testFulfilledAfterSubscribe() {
        var promise: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { promise = $0 }
        let recorder = Recorder<Int, Never>()
        future.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        promise?(.success(7))
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.finished)])
    }

    func testFulfilledOnlyOnce() {
        var promise: Future<Int, TestError>.Promise?
        let future = Future<Int, TestError> { promise = $0 }
        let recorder = Recorder<Int, TestError>()
        future.subscribe(recorder)
        promise?(.success(1))
        promise?(.success(2))
        promise?(.failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        let late = Recorder<Int, TestError>()
        future.subscribe(late)
        XCTAssertEqual(late.events, [.subscription, .value(1), .completion(.finished)], "every subscriber gets the result")
    }

    func testFailureIsDeliveredWithoutDemand() {
        let future = Future<Int, TestError> { $0(.failure(.boom)) }
        let recorder = Recorder<Int, TestError>(initialDemand: .none)
        future.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testEverySubscriberGetsTheResultWhenItHasDemand() {
        var promise: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { promise = $0 }
        let eager = Recorder<Int, Never>()
        let lazy = Recorder<Int, Never>(initialDemand: .none)
        future.subscribe(eager)
        future.subscribe(lazy)
        promise?(.success(5))
        XCTAssertEqual(eager.values, [5])
        XCTAssertEqual(lazy.events, [.subscription])
        lazy.request(.max(3))
        XCTAssertEqual(lazy.events, [.subscription, .value(5), .completion(.finished)])
    }

    func testCancelledSubscriberGetsNothing() {
        var promise: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { promise = $0 }
        let recorder = Recorder<Int, Never>()
        future.subscribe(recorder)
        recorder.cancel()
        recorder.request(.max(1))
        promise?(.success(1))
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testRecursiveFulfilmentFromSubscriberIsIgnored() {
        var promise: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { promise = $0 }
        let recorder = Recorder<Int, Never>(demandPerValue: { value in
            promise?(.success(value + 1))
            return .none
        })
        future.subscribe(recorder)
        promise?(.success(0))
        XCTAssertEqual(recorder.events, [.subscription, .value(0), .completion(.finished)])
    }

    func testFulfilledFromAnotherThread() {
        let done = expectation(description: "completed")
        let future = Future<Int, Never> { promise in
            DispatchQueue.global().async { promise(.success(99)) }
        }
        let received = Recorder<Int, Never>()  // only used as a thread-safe log
        let cancellable = future.sink(
            receiveCompletion: { _ in done.fulfill() },
            receiveValue: { _ = received.receive($0) }
        )
        wait(for: [done], timeout: 5)
        XCTAssertEqual(received.values, [99])
        let late = Recorder<Int, Never>()
        future.subscribe(late)
        XCTAssertEqual(late.events, [.subscription, .value(99), .completion(.finished)])
        cancellable.cancel()
    }

    func testConcurrentSubscribersAndFulfilmentDeliverExactlyOnce() {
        var promise: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { promise = $0 }
        let recorders = (0..<50).map { _ in Recorder<Int, Never>() }
        let fulfil = promise!
        DispatchQueue.concurrentPerform(iterations: 51) { index in
            if index == 25 { fulfil(.success(3)) }
            if index < 50 { future.subscribe(recorders[index]) }
        }
        for recorder in recorders {
            XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
        }
    }

    func testReleasesSubscriberAfterDelivery() {
        weak var weakSink: Subscribers.Sink<Int, Never>?
        let future = Future<Int, Never> { $0(.success(1)) }
        do {
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
            weakSink = sink
            future.subscribe(sink)
        }
        XCTAssertNil(weakSink)
    }

    func testAsyncValue() async throws {
        let future = Future<Int, Never> { promise in DispatchQueue.global().async { promise(.success(8)) } }
        let value = await future.value
        XCTAssertEqual(value, 8)
        let failing = Future<Int, TestError> { $0(.failure(.boom)) }
        do {
            _ = try await failing.value
            XCTFail("expected a throw")
        } catch {
            XCTAssertEqual(error as? TestError, .boom)
        }
    }
}

final class DeferredTests: XCTestCase {
    func testCreatesPublisherPerSubscription() {
        var created = 0
        let deferred = Deferred { () -> Just<Int> in
            created += 1
            return Just(created)
        }
        XCTAssertEqual(created, 0, "nothing runs before a subscription")
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        deferred.subscribe(first)
        deferred.subscribe(second)
        XCTAssertEqual(created, 2)
        XCTAssertEqual(first.values, [1])
        XCTAssertEqual(second.values, [2])
    }

    func testDefersFutureWork() {
        var runs = 0
        let deferred = Deferred { Future<Int, Never> { promise in runs += 1; promise(.success(runs)) } }
        XCTAssertEqual(runs, 0)
        let recorder = Recorder<Int, Never>()
        deferred.subscribe(recorder)
        deferred.subscribe(recorder)
        XCTAssertEqual(runs, 2)
    }

    /// The book: a Future runs its closure once, at creation, so `retry` cannot make it try
    /// again; "if you are wanting repeated requests to a Future (for example … retry), wrap the
    /// Future publisher with Deferred".
    func testRetryRerunsADeferredFutureButNotABareFuture() {
        var bareRuns = 0
        let bare = Future<Int, TestError> { promise in bareRuns += 1; promise(.failure(.boom)) }
        let bareRecorder = Recorder<Int, TestError>()
        bare.retry(2).subscribe(bareRecorder)
        XCTAssertEqual(bareRuns, 1, "the retries resubscribe to the same, already failed Future")
        XCTAssertEqual(bareRecorder.events, [.subscription, .completion(.failure(.boom))])

        var deferredRuns = 0
        let deferred = Deferred {
            Future<Int, TestError> { promise in
                deferredRuns += 1
                promise(deferredRuns < 3 ? .failure(.boom) : .success(deferredRuns))
            }
        }
        let deferredRecorder = Recorder<Int, TestError>()
        deferred.retry(2).subscribe(deferredRecorder)
        XCTAssertEqual(deferredRuns, 3)
        XCTAssertEqual(deferredRecorder.events, [.subscription, .value(3), .completion(.finished)])
    }
}

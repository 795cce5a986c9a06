import Dispatch
import StreamCore
import XCTest

/// The operators built on the internal `FilterProducer` (tryMap, tryFilter, prefix(while:), …)
/// and `ReduceProducer` (reduce, collect, count, …) let go of their downstream on cancel and on
/// completion. `Recorder` keeps its subscription for good, so a producer that kept its
/// downstream would form a cycle with it and neither would ever be freed.
final class ProducerCycleTests: XCTestCase {
    /// Subscribes a recorder through `operatorChain`, runs `end`, drops every strong reference
    /// and checks that the recorder and the producer (its subscription) were freed.
    private func assertReleased<Output>(
        _ operatorChain: (PassthroughSubject<Int, TestError>) -> AnyPublisher<Output, TestError>,
        initialDemand: Subscribers.Demand = .unlimited,
        end: (PassthroughSubject<Int, TestError>, Recorder<Output, TestError>) -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        weak var weakRecorder: Recorder<Output, TestError>?
        weak var weakProducer: AnyObject?
        let subject = PassthroughSubject<Int, TestError>()
        do {
            let recorder = Recorder<Output, TestError>(initialDemand: initialDemand)
            operatorChain(subject).subscribe(recorder)
            subject.send(1)
            weakRecorder = recorder
            weakProducer = recorder.subscription as AnyObject?
            XCTAssertNotNil(weakProducer, "the producer is a class", file: file, line: line)
            end(subject, recorder)
        }
        XCTAssertNil(weakRecorder, "downstream released", file: file, line: line)
        XCTAssertNil(weakProducer, "producer released", file: file, line: line)
    }

    // MARK: - FilterProducer

    func testTryMapReleasesItsDownstreamOnCancel() {
        assertReleased({ $0.tryMap { $0 * 2 }.eraseToAnyPublisherOfTestError() },
                       end: { _, recorder in recorder.cancel() })
    }

    func testTryFilterReleasesItsDownstreamOnFinished() {
        assertReleased({ $0.tryFilter { _ in true }.eraseToAnyPublisherOfTestError() },
                       end: { subject, recorder in
                           subject.send(completion: .finished)
                           XCTAssertEqual(recorder.completions.count, 1)
                       })
    }

    func testTryMapReleasesItsDownstreamOnUpstreamFailure() {
        assertReleased({ $0.tryMap { $0 }.eraseToAnyPublisherOfTestError() },
                       end: { subject, _ in subject.send(completion: .failure(.boom)) })
    }

    func testTryMapReleasesItsDownstreamWhenTheClosureThrows() {
        assertReleased({ $0.tryMap { _ in throw TestError.boom }.eraseToAnyPublisherOfTestError() },
                       end: { _, recorder in XCTAssertEqual(recorder.completions.count, 1) })
    }

    func testPrefixWhileReleasesItsDownstreamWhenItEndsEarly() {
        assertReleased({ $0.prefix { $0 < 2 }.eraseToAnyPublisher() },
                       end: { subject, recorder in
                           subject.send(2)
                           XCTAssertEqual(recorder.values, [1])
                           XCTAssertEqual(recorder.completions.count, 1)
                       })
    }

    // MARK: - ReduceProducer

    func testCollectReleasesItsDownstreamOnCancel() {
        assertReleased({ $0.collect().eraseToAnyPublisher() },
                       end: { _, recorder in recorder.cancel() })
    }

    func testReduceReleasesItsDownstreamOnFinished() {
        assertReleased({ $0.reduce(0, +).eraseToAnyPublisher() },
                       end: { subject, recorder in
                           subject.send(completion: .finished)
                           XCTAssertEqual(recorder.values, [1])
                       })
    }

    func testCountReleasesItsDownstreamOnFailure() {
        assertReleased({ $0.count().eraseToAnyPublisher() },
                       end: { subject, _ in subject.send(completion: .failure(.boom)) })
    }

    func testFirstReleasesItsDownstreamWhenItEndsEarly() {
        assertReleased({ $0.first().eraseToAnyPublisher() },
                       end: { _, recorder in XCTAssertEqual(recorder.values, [1]) })
    }

    func testTryReduceReleasesItsDownstreamWhenTheClosureThrows() {
        assertReleased({ $0.tryReduce(0) { _, _ in throw TestError.boom }.eraseToAnyPublisherOfTestError() },
                       end: { _, recorder in XCTAssertEqual(recorder.completions.count, 1) })
    }

    func testReduceWaitingForDemandReleasesItsDownstreamOnCancel() {
        assertReleased({ $0.reduce(0, +).eraseToAnyPublisher() }, initialDemand: .none,
                       end: { subject, recorder in
                           subject.send(completion: .finished)
                           XCTAssertEqual(recorder.values, [], "the result waits for demand")
                           recorder.cancel()
                       })
    }

    /// `cancel()` racing with values being folded: the fold never runs on a result that cancel
    /// is releasing (it works on a copy taken under the lock), and nothing arrives after cancel.
    func testCancelRacingWithFolding() {
        for _ in 0..<200 {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = Recorder<[Int], Never>()
            subject.collect().subscribe(recorder)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 0..<200 { subject.send(value) }
                } else {
                    recorder.cancel()
                }
            }
            subject.send(completion: .finished)
            XCTAssertEqual(recorder.values, [])
        }
    }
}

private extension Publisher {
    /// Erases a publisher failing with `any Error` whose errors are all `TestError`s.
    func eraseToAnyPublisherOfTestError() -> AnyPublisher<Output, TestError> {
        mapError { $0 as? TestError ?? .boom }.eraseToAnyPublisher()
    }
}

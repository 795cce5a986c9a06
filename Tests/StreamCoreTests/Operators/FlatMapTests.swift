import StreamCore
import XCTest

final class FlatMapTests: XCTestCase {
    func testFlattensInnerPublishers() {
        let recorder = Recorder<Int, Never>()
        [1, 2, 3].publisher.flatMap { [$0, $0 * 10].publisher }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 10, 2, 20, 3, 30])
        XCTAssertEqual(recorder.completions, [.finished])
    }

    func testMaxPublishersLimitsConcurrentInners() {
        let upstream = TrackedSubject<Int, Never>()
        let inners = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = Recorder<Int, Never>()
        upstream.flatMap(maxPublishers: .max(2)) { inners[$0] }.subscribe(recorder)
        XCTAssertEqual(upstream.requests, [.max(2)])
        upstream.send(0); upstream.send(1)
        upstream.send(2) // beyond the request: the subject drops it
        inners[0].send(1); inners[1].send(2)
        XCTAssertEqual(recorder.values, [1, 2])
        inners[0].send(completion: .finished)
        XCTAssertEqual(upstream.requests, [.max(2), .max(1)], "one more per finished inner")
        upstream.send(2)
        inners[2].send(3)
        XCTAssertEqual(recorder.values, [1, 2, 3])

        let unlimited = TrackedSubject<Int, Never>()
        unlimited.flatMap { Just($0) }.subscribe(Recorder<Int, Never>())
        XCTAssertEqual(unlimited.requests, [.unlimited])
    }

    func testDemandIsSharedAndBufferedPerInner() {
        let upstream = PassthroughSubject<Int, Never>()
        let inners = (0..<2).map { _ in TrackedSubject<Int, Never>() }
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        upstream.flatMap { inners[$0] }.subscribe(recorder)
        upstream.send(0); upstream.send(1)
        XCTAssertEqual([inners[0].requests, inners[1].requests], [[.max(1)], [.max(1)]])
        inners[1].send(10); inners[0].send(20)
        XCTAssertEqual(recorder.values, [10], "20 waits for demand")
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [10, 20])
    }

    func testFinishesWhenUpstreamAndAllInnersFinish() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        upstream.flatMap { _ in inner }.subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .finished)
        inner.send(5)
        XCTAssertEqual(recorder.completions, [])
        inner.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.finished)])
    }

    func testInnerFailureCancelsUpstreamAndOtherInners() {
        let upstream = TrackedSubject<Int, TestError>()
        let inners = (0..<2).map { _ in TrackedSubject<Int, TestError>() }
        let recorder = Recorder<Int, TestError>()
        upstream.flatMap { inners[$0] }.subscribe(recorder)
        upstream.send(0); upstream.send(1)
        inners[1].send(completion: .failure(.boom))
        inners[0].send(1)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
        XCTAssertEqual([upstream.cancels, inners[0].cancels, inners[1].cancels], [1, 1, 0])
    }

    func testCancelCancelsEverythingAndReleases() {
        let upstream = TrackedSubject<Int, Never>()
        let inner = TrackedSubject<Int, Never>()
        weak var weakRecorder: Recorder<Int, Never>?
        do {
            let recorder = Recorder<Int, Never>()
            weakRecorder = recorder
            upstream.flatMap { _ in inner }.subscribe(recorder)
            upstream.send(1)
            recorder.cancel()
        }
        XCTAssertEqual([upstream.cancels, inner.cancels], [1, 1])
        XCTAssertNil(weakRecorder)
    }

    func testFailureTypeOverloads() {
        let recorder = Recorder<Int, TestError>()
        Just(1).flatMap { _ in Fail<Int, TestError>(error: .boom) }.subscribe(recorder)
        XCTAssertEqual(recorder.completions, [.failure(.boom)])

        let second = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: .other(3)).flatMap { Just($0) }.subscribe(second)
        XCTAssertEqual(second.completions, [.failure(.other(3))])
    }

    /// The book's pattern (flatMap with catch): each value gets a one-shot pipeline whose error is
    /// caught inside, so a failure becomes a placeholder and the outer pipeline keeps running.
    func testCatchInsideFlatMapKeepsThePipelineAlive() {
        let subject = PassthroughSubject<String, Never>()
        let recorder = Recorder<Int, Never>()
        subject
            .flatMap { text in
                Just(text)
                    .tryMap { text -> Int in
                        guard let number = Int(text) else { throw TestError.boom }
                        return number
                    }
                    .catch { _ in Just(-1) }
            }
            .subscribe(recorder)
        subject.send("1")
        subject.send("x")
        subject.send("3")
        XCTAssertEqual(recorder.values, [1, -1, 3])
        XCTAssertEqual(recorder.completions, [], "an inner failure does not end the stream")
        subject.send(completion: .finished)
        XCTAssertEqual(recorder.completions, [.finished])
    }
}

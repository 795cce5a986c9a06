import Dispatch
import StreamCore
import XCTest

final class CollectByTimeTests: XCTestCase {
    func testByTimePublishesEachIntervalsItems() {
        // Groups drawn as one letter per group: the group's items joined.
        assertMarbles(input: "ab-c-----d|", expected: "---a--c--d|") { upstream, scheduler in
            upstream.collect(.byTime(scheduler, .milliseconds(300)))
                .map { String($0.first ?? "?") }
                .eraseToAnyPublisher()
        }
    }

    func testByTimeGroupsAndTimes() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let upstream = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<[Int], TestError>(clock: { milliseconds(since: start, on: scheduler) })
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(by: .milliseconds(1_500))
        upstream.send(3)
        scheduler.advance(by: .seconds(2))  // the empty interval at 3 s publishes nothing
        upstream.send(4)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.values, [[1, 2], [3], [4]])
        XCTAssertEqual(recorder.timeline.map(\.time), [0, 1_000, 2_000, 3_500, 3_500])
        XCTAssertEqual(recorder.completions.count, 1)
        XCTAssertEqual(scheduler.pendingCount, 0, "the interval timer is cancelled on completion")
    }

    func testFailureDiscardsPartialGroup() {
        let scheduler = DispatchQueue.test
        let upstream = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<[Int], TestError>()
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(.boom))])
    }

    func testByTimeOrCountPublishesFullGroupsAtOnce() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let upstream = PassthroughSubject<Int, Never>()
        let recorder = Recorder<[Int], Never>(clock: { milliseconds(since: start, on: scheduler) })
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(recorder)
        scheduler.advance(by: .milliseconds(200))
        upstream.send(1)
        upstream.send(2)  // full: published now; the interval keeps its cadence
        upstream.send(3)
        scheduler.advance(by: .milliseconds(799))
        XCTAssertEqual(recorder.values, [[1, 2]])
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(recorder.values, [[1, 2], [3]])
        XCTAssertEqual(recorder.timeline.dropFirst().map(\.time), [200, 1_000])
    }

    /// Apple's cadence: time windows run from subscription, whatever the count does (values 1–5 at
    /// 0.1–0.5 s, 6 and 7 at 1.3 and 1.4 s → [1,2,3] by count at 0.3 s, [4,5] at 1 s, [6,7] at 2 s).
    func testByTimeOrCountTimeWindowsKeepTheirCadenceWhenTheCountFills() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let upstream = PassthroughSubject<Int, Never>()
        let recorder = Recorder<[Int], Never>(clock: { milliseconds(since: start, on: scheduler) })
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 3)).subscribe(recorder)
        for value in 1...5 {
            scheduler.advance(by: .milliseconds(100))
            upstream.send(value)
        }
        scheduler.advance(by: .milliseconds(800))
        upstream.send(6)
        scheduler.advance(by: .milliseconds(100))
        upstream.send(7)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(recorder.values, [[1, 2, 3], [4, 5], [6, 7]])
        XCTAssertEqual(recorder.timeline.dropFirst().map(\.time), [300, 1_000, 2_000])
    }

    func testByTimeOrCountRequestsCountTimesDemand() {
        let scheduler = DispatchQueue.test
        let upstream = ScriptedPublisher<Int, Never>(keepsSubscriber: true)
        let recorder = Recorder<[Int], Never>(initialDemand: .max(2))
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 3)).subscribe(recorder)
        XCTAssertEqual(upstream.requests, [.max(6)])
        recorder.cancel()
        XCTAssertTrue(upstream.cancelled)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testGroupsWaitForDemand() {
        let scheduler = DispatchQueue.test
        let upstream = PassthroughSubject<Int, Never>()
        let recorder = Recorder<[Int], Never>(initialDemand: .none)
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(recorder.values, [])
        upstream.send(2)
        recorder.request(.max(1))
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(recorder.values, [[1, 2]])
    }

    /// The book on byTimeOrCount: "If a .finished completion is received, the currently collected
    /// set will be immediately sent"; "If a .failure completion is received, any currently
    /// buffered values are dropped".
    func testByTimeOrCountFinishSendsTheCurrentGroupAtOnceAndFailureDropsIt() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let finishing = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<[Int], TestError>(clock: { milliseconds(since: start, on: scheduler) })
        finishing.collect(.byTimeOrCount(scheduler, .seconds(1), 5)).subscribe(recorder)
        scheduler.advance(by: .milliseconds(100))
        finishing.send(1)
        finishing.send(2)
        scheduler.advance(by: .milliseconds(100))
        finishing.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value([1, 2]), .completion(.finished)])
        XCTAssertEqual(recorder.timeline.map(\.time), [0, 200, 200], "sent at the finish, not at the window's end")
        XCTAssertEqual(scheduler.pendingCount, 0, "the window timer is cancelled")

        let failing = PassthroughSubject<Int, TestError>()
        let failed = Recorder<[Int], TestError>()
        failing.collect(.byTimeOrCount(scheduler, .seconds(1), 5)).subscribe(failed)
        failing.send(1)
        failing.send(completion: .failure(.boom))
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(failed.events, [.subscription, .completion(.failure(.boom))])
    }
}

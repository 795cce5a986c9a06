import StreamCore
import XCTest

final class RemoveDuplicatesTests: XCTestCase {
    func testDropsConsecutiveDuplicatesOnly() {
        let recorder = Recorder<Int, Never>()
        [1, 1, 2, 2, 2, 3, 1, 1, 4].publisher.removeDuplicates().subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2, 3, 1, 4])
        XCTAssertEqual(recorder.completions, [.finished])
    }

    func testDroppedDuplicateDoesNotConsumeDemand() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        [7, 7, 7, 8, 8, 9].publisher.removeDuplicates().subscribe(recorder)
        XCTAssertEqual(recorder.values, [7, 8])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .value(8), .value(9), .completion(.finished)])
    }

    func testDuplicateAsksUpstreamForOneMore() {
        let upstream = ScriptedPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .none)
        upstream.removeDuplicates().subscribe(recorder)
        XCTAssertEqual(upstream.send(5), .none)
        XCTAssertEqual(upstream.send(5), .max(1))
        XCTAssertEqual(upstream.events, [.requested(.max(1))], "request goes straight to the upstream")
    }

    func testComparesWithThePreviousElementReceived() {
        // Non-transitive predicate: 2 is dropped as close to 1, 3 as close to 2 (as in Apple's).
        let recorder = Recorder<Int, Never>()
        [1, 2, 3, 5, 6].publisher.removeDuplicates { abs($0 - $1) <= 1 }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 5])
    }

    func testFailurePassesThroughAndCancelReachesUpstream() {
        let upstream = ScriptedPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        upstream.removeDuplicates().subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.failure(.boom))])

        let other = ScriptedPublisher<Int, TestError>()
        let cancelled = Recorder<Int, TestError>()
        other.removeDuplicates().subscribe(cancelled)
        cancelled.cancel()
        XCTAssertEqual(other.events, [.requested(.unlimited), .cancelled])
    }

    func testEachSubscriptionHasItsOwnMemory() {
        let subject = PassthroughSubject<Int, Never>()
        let deduplicated = subject.removeDuplicates()
        let first = Recorder<Int, Never>()
        deduplicated.subscribe(first)
        subject.send(1)
        let second = Recorder<Int, Never>()
        deduplicated.subscribe(second)
        subject.send(1)
        XCTAssertEqual(first.values, [1])
        XCTAssertEqual(second.values, [1])
    }

    func testCancelReleasesTheChain() {
        final class Token {}
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: Token?
        var received: [Int] = []
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = subject.removeDuplicates().sink { _ = token; received.append($0) }
        }
        subject.send(1)
        cancellable?.cancel()
        cancellable = nil
        subject.send(2)
        XCTAssertEqual(received, [1])
        XCTAssertNil(weakToken)
    }
}

extension RemoveDuplicatesTests {
    final class Item { let id: Int; init(_ id: Int) { self.id = id } }

    func testKeepsTheLastElementOnlyWhileSubscribed() {
        let subject = PassthroughSubject<Item, Never>()
        weak var weakLast: Item?
        var ids: [Int] = []
        var cancellable: AnyCancellable? = subject.removeDuplicates { $0.id == $1.id }.sink { ids.append($0.id) }
        subject.send(Item(1))
        do {
            let duplicate = Item(1)
            weakLast = duplicate
            subject.send(duplicate)
        }
        subject.send(Item(2))
        XCTAssertNil(weakLast, "replaced by a later element")
        do {
            let last = Item(2)
            weakLast = last
            subject.send(last)
        }
        XCTAssertNotNil(weakLast, "the previous element is remembered")
        cancellable?.cancel()
        cancellable = nil
        XCTAssertEqual(ids, [1, 2])
        XCTAssertNil(weakLast, "and released with the subscription")
    }
}

final class TryRemoveDuplicatesTests: XCTestCase {
    func testDropsDuplicatesAndFailsOnThrow() {
        let upstream = ScriptedPublisher<Int, Never>()
        let recorder = Recorder<Int, Error>()
        upstream.tryRemoveDuplicates { previous, next in
            if next < 0 { throw TestError.boom }
            return previous == next
        }.subscribe(recorder)
        upstream.send(1)
        XCTAssertEqual(upstream.send(1), .max(1))
        upstream.send(2)
        upstream.send(-1)
        upstream.send(3)
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertEqual(recorder.completionSummary, ["failure(boom)"])
        XCTAssertEqual(upstream.events, [.requested(.unlimited), .cancelled])
    }

    func testFirstElementIsNotCompared() {
        let recorder = Recorder<Int, Error>(initialDemand: .max(2))
        [4, 4, 5, 6].publisher.tryRemoveDuplicates { _, _ in false }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [4, 4])
        let deduplicated = Recorder<Int, Error>()
        [4, 4, 5].publisher.tryRemoveDuplicates(by: ==).subscribe(deduplicated)
        XCTAssertEqual(deduplicated.values, [4, 5])
        XCTAssertEqual(deduplicated.completionSummary, ["finished"])
    }
}

import Foundation
import StreamCore
import XCTest

/// A subscriber asking for `.max(3)` gets exactly three values, whatever the pipeline.
final class DemandNeverExceededTests: XCTestCase {
    /// Counts the demand it has requested and flags every value that arrives beyond it.
    /// Sendable: the mutable fields are only touched with `lock` held.
    private final class DemandAuditor<Input>: Subscriber, @unchecked Sendable {
        typealias Failure = Never
        private let lock = TestLock()
        private var outstanding: Subscribers.Demand
        private var received = 0
        private var excess = 0
        private let initial: Subscribers.Demand
        private let more: (Int) -> Subscribers.Demand

        /// - Parameter more: the demand to return after the n-th value (1-based).
        init(_ initial: Subscribers.Demand, more: @escaping (Int) -> Subscribers.Demand = { _ in .none }) {
            self.initial = initial
            outstanding = initial
            self.more = more
        }

        var count: Int { lock.withLock { received } }
        var overDelivered: Int { lock.withLock { excess } }

        func receive(subscription: Subscription) { subscription.request(initial) }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.withLock {
                received += 1
                if outstanding == .none { excess += 1 } else { outstanding -= 1 }
                let extra = more(received)
                outstanding += extra
                return extra
            }
        }

        func receive(completion: Subscribers.Completion<Never>) {}
    }

    private func assertExactlyThree(_ subscribe: (DemandAuditor<Int>) -> Void, file: StaticString = #filePath, line: UInt = #line) {
        let auditor = DemandAuditor<Int>(.max(3))
        subscribe(auditor)
        XCTAssertEqual(auditor.count, 3, file: file, line: line)
        XCTAssertEqual(auditor.overDelivered, 0, file: file, line: line)
    }

    func testSubjects() {
        let passthrough = PassthroughSubject<Int, Never>()
        assertExactlyThree { passthrough.subscribe($0); (1...10).forEach(passthrough.send) }
        let current = CurrentValueSubject<Int, Never>(0)
        assertExactlyThree { current.subscribe($0); (1...10).forEach(current.send) }
    }

    func testSequenceAndMapFilterChain() {
        assertExactlyThree { (1...10).publisher.subscribe($0) }
        assertExactlyThree { (1...100).publisher.map { $0 * 3 }.filter { $0 % 2 == 0 }.map { $0 + 1 }.subscribe($0) }
        let subject = PassthroughSubject<Int, Never>()
        assertExactlyThree { subject.map { $0 }.filter { $0 > 2 }.subscribe($0); (1...10).forEach(subject.send) }
    }

    func testShareMulticastAndMakeConnectable() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.map { $0 }.share()
        let greedy = Recorder<Int, Never>()
        shared.subscribe(greedy)
        assertExactlyThree { shared.subscribe($0); (1...10).forEach(subject.send) }
        XCTAssertEqual(greedy.values.count, 10, "another subscriber's unlimited demand doesn't leak")

        assertExactlyThree { (1...10).publisher.share().subscribe($0) }

        let multicast = (1...10).publisher.multicast(subject: PassthroughSubject())
        assertExactlyThree { multicast.subscribe($0); multicast.connect().cancel() }

        let connectable = (1...10).publisher.filter { _ in true }.makeConnectable()
        assertExactlyThree { connectable.autoconnect().subscribe($0) }
    }

    func testDemandAddedFromReceiveIsCountedExactly() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.filter { _ in true }.share()
        // .max(3) up front, one more after each of the first two values: five in all.
        let auditor = DemandAuditor<Int>(.max(3)) { $0 <= 2 ? .max(1) : .none }
        shared.subscribe(auditor)
        (1...20).forEach(subject.send)
        XCTAssertEqual(auditor.count, 5)
        XCTAssertEqual(auditor.overDelivered, 0)
    }

    func testDemandHoldsUnderConcurrentProducers() {
        let subject = PassthroughSubject<Int, Never>()
        let viaShare = DemandAuditor<Int>(.max(3))
        let viaMap = DemandAuditor<Int>(.max(3))
        subject.map { $0 }.filter { _ in true }.share().subscribe(viaShare)
        subject.map { $0 + 1 }.subscribe(viaMap)
        DispatchQueue.concurrentPerform(iterations: 8) { producer in
            for value in 0..<500 { subject.send(producer * 1_000 + value) }
        }
        XCTAssertEqual(viaShare.count, 3)
        XCTAssertEqual(viaMap.count, 3)
        XCTAssertEqual(viaShare.overDelivered + viaMap.overDelivered, 0)
    }
}

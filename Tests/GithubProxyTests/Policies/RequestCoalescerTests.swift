@testable import GithubProxy
import HTTPTestSupport
import StreamCore
import XCTest

/// One publisher per key while it runs; `make` runs outside the coalescer's lock.
final class RequestCoalescerTests: XCTestCase {
    func testJoinsTheRunningPublisherUntilItProduces() {
        let coalescer = RequestCoalescer<Int, Never>()
        let first = coalescer.publisher(for: "k") { Just(1).eraseToAnyPublisher() }
        let second = coalescer.publisher(for: "k") {
            XCTFail("made while one is running")
            return Empty().eraseToAnyPublisher()
        }
        XCTAssertTrue(first.made)
        XCTAssertFalse(second.made)
        XCTAssertEqual(coalescer.count, 1)
        var received: [Int] = []
        let cancellable = second.publisher.sink { received.append($0) }
        XCTAssertEqual(received, [1])
        XCTAssertEqual(coalescer.count, 0, "gone once it produced")
        XCTAssertTrue(coalescer.publisher(for: "k") { Just(3).eraseToAnyPublisher() }.made, "a later caller starts afresh")
        cancellable.cancel()
    }

    /// Another caller registers while `make` runs (from another thread, which `make` waits
    /// for): this caller joins that one, and what `make` built is never subscribed.
    func testAPublisherRegisteredWhileMakingIsJoined() {
        let coalescer = RequestCoalescer<Int, Never>()
        let builtWasSubscribed = Box(false)
        let otherMade = Box<Bool?>(nil)
        let result = coalescer.publisher(for: "k") {
            let finished = finishesOnAnotherThread {
                otherMade.mutate { $0 = coalescer.publisher(for: "k") { Just(2).eraseToAnyPublisher() }.made }
            }
            XCTAssertTrue(finished, "registering waited for the lock that make ran under")
            return Just(1).handleEvents(receiveSubscription: { _ in builtWasSubscribed.mutate { $0 = true } }).eraseToAnyPublisher()
        }
        XCTAssertEqual(otherMade.value, true)
        XCTAssertFalse(result.made)
        var received: [Int] = []
        let cancellable = result.publisher.sink { received.append($0) }
        XCTAssertEqual(received, [2])
        XCTAssertFalse(builtWasSubscribed.value)
        cancellable.cancel()
    }
}

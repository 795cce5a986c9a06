import Dispatch
import Locking
import XCTest

final class LockedTests: XCTestCase {
    private final class Box: Sendable {
        let counter = Locked(0)
    }

    /// Increments from many threads at once lose none (under `make tsan`, ThreadSanitizer checks
    /// that every access to the state is ordered by the lock).
    func testConcurrentUpdatesLoseNone() {
        let box = Box()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { box.counter.withLock { $0 += 1 } }
        }
        XCTAssertEqual(box.counter.withLock { $0 }, 80_000)
    }

    /// `withLock` hands back what its body returns and throws what it throws (typed), leaving
    /// the lock free for the next caller; the state may be a non-Sendable class.
    func testReturnsAndThrowsAndHoldsNonSendableState() {
        struct Refused: Error {}
        final class Handle { var uses = 0 }
        let state = Locked(Handle())
        XCTAssertEqual(state.withLock { handle in handle.uses += 1; return handle.uses }, 1)
        XCTAssertThrowsError(try state.withLock { (_) throws(Refused) in throw Refused() }) { XCTAssertTrue($0 is Refused) }
        XCTAssertEqual(state.withLock { $0.uses }, 1)
    }
}

import Dispatch
import Locking
import XCTest

final class LockedStateTests: XCTestCase {
    /// Increments from many threads at once lose none (under `make tsan`, ThreadSanitizer checks
    /// that every access to the state is ordered by the lock).
    func testConcurrentUpdatesLoseNone() {
        let counter = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        XCTAssertEqual(counter.withLock { $0 }, 80_000)
    }

    /// `withLock` hands back what its body returns, and rethrows what it throws, leaving the lock
    /// free for the next caller.
    func testReturnsAndRethrows() {
        struct Refused: Error {}
        let state = LockedState([1, 2])
        XCTAssertEqual(state.withLock { $0.removeLast() }, 2)
        XCTAssertThrowsError(try state.withLock { _ in throw Refused() })
        XCTAssertEqual(state.withLock { $0 }, [1])
    }
}

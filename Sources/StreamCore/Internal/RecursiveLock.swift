import Foundation
import Locking
import Synchronization

/// A recursive mutex, for the few places where a callback may legally re-enter (a subject's
/// deliveries, `Publishers.Share`'s connect, `receive(on:)` on an immediate scheduler).
@frozen @usableFromInline
struct RecursiveLock: @unchecked Sendable {  // Sendable: it is the mutex itself
    @usableFromInline let storage: RecursiveLockStorage

    @inlinable
    init() { storage = RecursiveLockStorage() }

    @inlinable func lock() { storage.lock() }

    @inlinable func unlock() { storage.unlock() }
}

/// The heap block of a `RecursiveLock`: a `Lock`, the thread holding it and how many times.
///
/// Sendable: `depth` is read and written only by the thread that holds `mutex`; `owner` is
/// atomic, and a thread finds its own identity there only if it stored it itself (a stale value
/// read by another thread is never that thread's identity), so the relaxed loads are enough.
@usableFromInline
final class RecursiveLockStorage: @unchecked Sendable {
    @usableFromInline let mutex = Lock()
    @usableFromInline let owner = Atomic<UInt>(0)
    @usableFromInline @exclusivity(unchecked) var depth = 0

    @inlinable init() {}

    @inlinable
    func lock() {
        let me = UInt(pthread_self())  // pthread_t is an integer on Linux, never 0 for a live thread
        if owner.load(ordering: .relaxed) == me {
            depth += 1
            return
        }
        mutex.lock()
        owner.store(me, ordering: .relaxed)
        depth = 1
    }

    @inlinable
    func unlock() {
        depth -= 1
        if depth == 0 {
            owner.store(0, ordering: .relaxed)
            mutex.unlock()
        }
    }
}

import Foundation
import Synchronization

/// A non-recursive mutex: the standard library's `Mutex` (a futex word on Linux, whose
/// uncontended lock and unlock are one compare-and-exchange each, inlined; `pthread_mutex_lock`
/// costs a call and about three times the instructions).
///
/// The building block for every piece of shared mutable state in StreamCore. Never call out to
/// user code or to another subscriber while holding it. A `Lock` is stored in place (a `let`
/// of the object whose state it guards: no allocation of its own) and cannot be copied.
@frozen @usableFromInline
struct Lock: ~Copyable, @unchecked Sendable {  // Sendable: it is the mutex itself
    @usableFromInline let mutex = Mutex<Void>(())

    @inlinable
    init() {}

    @inlinable func lock() { mutex._unsafeLock() }

    @inlinable func unlock() { mutex._unsafeUnlock() }

    /// Runs `body` with the lock held.
    @inlinable
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

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

/// The heap block of a `RecursiveLock`: a `Mutex`, the thread holding it and how many times.
///
/// Sendable: `depth` is read and written only by the thread that holds `mutex`; `owner` is
/// atomic, and a thread finds its own identity there only if it stored it itself (a stale value
/// read by another thread is never that thread's identity), so the relaxed loads are enough.
@usableFromInline
final class RecursiveLockStorage: @unchecked Sendable {
    @usableFromInline let mutex = Mutex<Void>(())
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
        mutex._unsafeLock()
        owner.store(me, ordering: .relaxed)
        depth = 1
    }

    @inlinable
    func unlock() {
        depth -= 1
        if depth == 0 {
            owner.store(0, ordering: .relaxed)
            mutex._unsafeUnlock()
        }
    }
}

import Foundation
import Synchronization

/// A non-recursive mutex: the standard library's `Mutex` (a futex word on Linux, whose
/// uncontended lock and unlock are one compare-and-exchange each, inlined; `pthread_mutex_lock`
/// costs a call and about three times the instructions).
///
/// The building block for every piece of shared mutable state in StreamCore. Never call out to
/// user code or to another subscriber while holding it. A `Lock` is a reference to one heap
/// block holding the mutex (its address is stable, one allocation per lock); copies of a `Lock`
/// share that mutex.
@frozen @usableFromInline
struct Lock: @unchecked Sendable {  // Sendable: it is the mutex itself
    @usableFromInline let storage: LockStorage

    @inlinable
    init() { storage = LockStorage() }

    @inlinable func lock() { storage.mutex._unsafeLock() }

    @inlinable func unlock() { storage.mutex._unsafeUnlock() }

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
    @usableFromInline let storage: MutexStorage

    @inlinable
    init() { storage = MutexStorage.make(recursive: true) }

    @inlinable func lock() { storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_lock($0) } }

    @inlinable func unlock() { storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_unlock($0) } }
}

/// The heap block of a `Lock`: one `Mutex`.
@usableFromInline
final class LockStorage: Sendable {
    @usableFromInline let mutex = Mutex<Void>(())

    @inlinable init() {}
}

/// The heap block of a `RecursiveLock`: one `pthread_mutex_t`, destroyed with the block.
@usableFromInline
final class MutexStorage: ManagedBuffer<Void, pthread_mutex_t> {
    @usableFromInline
    static func make(recursive: Bool) -> MutexStorage {
        let buffer = create(minimumCapacity: 1) { _ in () }
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            if recursive {
                var attributes = pthread_mutexattr_t()
                pthread_mutexattr_init(&attributes)
                pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
                pthread_mutex_init(mutex, &attributes)
                pthread_mutexattr_destroy(&attributes)
            } else {
                pthread_mutex_init(mutex, nil)
            }
        }
        return unsafeDowncast(buffer, to: MutexStorage.self)
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
}

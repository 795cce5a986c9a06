#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

// The project's one lock type. Release and debug builds use the standard library's `Mutex`
// (a futex word on Linux, whose uncontended lock and unlock are one inlined compare-and-exchange
// each). ThreadSanitizer cannot see a futex: with `Mutex`, every access it guards looks like a
// race. Sanitizer builds (`make tsan`, `make asan`) therefore compile with
// `-DSANITIZER_VISIBLE_LOCKS`, which swaps the storage for a `pthread_mutex_t` the sanitizer
// intercepts. Nothing else changes: same API, same call sites.

#if SANITIZER_VISIBLE_LOCKS

/// A non-recursive mutex (sanitizer build: a heap `pthread_mutex_t`, which ThreadSanitizer
/// observes; see the comment at the top of this file).
///
/// The building block for every piece of shared mutable state in the project. Never call out to
/// user code or to another subscriber while holding it. A `Lock` is stored in place (a `let`
/// of the object whose state it guards) and cannot be copied.
@frozen
public struct Lock: ~Copyable, @unchecked Sendable {  // Sendable: it is the mutex itself
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    @inlinable
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable public func lock() { pthread_mutex_lock(mutex) }

    @inlinable public func unlock() { pthread_mutex_unlock(mutex) }
}

#else

/// A non-recursive mutex: the standard library's `Mutex` (a futex word on Linux, whose
/// uncontended lock and unlock are one compare-and-exchange each, inlined; `pthread_mutex_lock`
/// costs a call and about three times the instructions).
///
/// The building block for every piece of shared mutable state in the project. Never call out to
/// user code or to another subscriber while holding it. A `Lock` is stored in place (a `let`
/// of the object whose state it guards: no allocation of its own) and cannot be copied.
@frozen
public struct Lock: ~Copyable, @unchecked Sendable {  // Sendable: it is the mutex itself
    @usableFromInline let mutex = Mutex<Void>(())

    @inlinable
    public init() {}

    @inlinable public func lock() { mutex._unsafeLock() }

    @inlinable public func unlock() { mutex._unsafeUnlock() }
}

#endif

extension Lock {
    /// Runs `body` with the lock held.
    @inlinable
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

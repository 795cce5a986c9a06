import Synchronization

/// A lock that holds the state it guards: the state is reachable only inside `withLock`, so no
/// access can forget the lock (the standard library's `Mutex<State>`, which it wraps).
///
/// Stored in place (a `let` of its owner, usually a final class: no allocation of its own), its
/// `withLock` inlines, and its state need not be `Sendable`: it never leaves the lock except as a
/// `sending` result. The project's one way to keep shared mutable state (`Atomic` for a single
/// word).
///
/// Sanitizer builds (`-DSANITIZER_VISIBLE_LOCKS`) also take a `Lock` around every access, which
/// ThreadSanitizer sees (it cannot see `Mutex`'s futex); release and debug builds cost exactly a
/// `Mutex`. Like `Lock`: stored in place, never copied; never call out to user code while
/// holding it.
@frozen
public struct Locked<State: ~Copyable>: ~Copyable {
    #if SANITIZER_VISIBLE_LOCKS
    @usableFromInline let visible = Lock()
    #endif
    @usableFromInline let mutex: Mutex<State>

    @inlinable
    public init(_ initial: consuming sending State) {
        mutex = Mutex(initial)
    }

    /// Runs `body` with the lock held and the state lent to it.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if SANITIZER_VISIBLE_LOCKS
        visible.lock()
        defer { visible.unlock() }
        #endif
        return try mutex.withLock(body)
    }
}

extension Locked: Sendable where State: ~Copyable {}

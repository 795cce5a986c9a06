/// Shared mutable state inside its lock: the state is reached only through ``withLock(_:)``, so no
/// access can forget the lock (what `Mutex<State>` gives, on the project's ``Lock``, which
/// sanitizer builds make visible to ThreadSanitizer).
///
/// A class, so that the closures and objects that share the state share one instance. Never call
/// out to other code from `body`: copy what is needed out, return, then call.
public final class LockedState<State: Sendable>: @unchecked Sendable {
    // Sendable: `state` is read and written only inside `withLock`, under `lock`
    // (LockingTests.LockedStateTests).
    private let lock = Lock()
    private var state: State

    public init(_ state: State) { self.state = state }

    /// Runs `body` on the state with the lock held; returns what `body` returns.
    @inlinable
    public func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try withLockedState(body)
    }

    @usableFromInline
    func withLockedState<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

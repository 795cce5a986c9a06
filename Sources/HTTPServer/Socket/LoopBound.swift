/// A value bound to one `EventLoop`: read and written only on that loop's thread, which
/// serialises every access the way a lock would. Debug and test builds check this on every
/// access (`assert`: a trap off the loop); release builds compile the check out, so the hot
/// paths pay for no thread lookup. The model is SwiftNIO's `NIOLoopBoundBox`.
///
/// A class holding its loop-only state in a `LoopBound` (`let state: LoopBound<State>`) is
/// plainly `Sendable`: it can be captured by the closures it hands its loop, and nothing
/// reaches its state elsewhere without the check seeing it.
///
/// Never call out — to a delegate, a subscriber, a closure, anything that may come back to the
/// same value — while a mutating access is open: copy out what the call needs, let the access
/// end, then call. Debug and test builds trap on an overlapping access (Swift's dynamic
/// exclusivity check on the class's storage). Release builds leave that check out, as they leave
/// out the loop check: an overlap is a programming error for the test suite to find, and the
/// check (`swift_beginAccess` and its thread-local access set) was 1.5 % of the service's CPU
/// per `/healthz` request (`perf record`).
public final class LoopBound<Value>: @unchecked Sendable {
    // Sendable: `storage` is only read or written on `loop`'s thread (asserted on every access
    // in debug and test builds; `LoopBoundTests`), or before any other thread has seen it (the
    // `sending` initialiser). One thread at a time, so no lock is needed.

    /// The loop the value is bound to.
    public let loop: EventLoop
    #if DEBUG
    @usableFromInline var storage: Value
    #else
    @exclusivity(unchecked) @usableFromInline var storage: Value
    #endif

    /// Binds `value` to `loop`; call on the loop.
    public init(_ value: Value, loop: EventLoop) {
        assert(loop.inLoop, "LoopBound created off its loop: use init(sending:loop:)")
        self.loop = loop
        storage = value
    }

    /// Binds `value` to `loop` from any thread: the value is handed over whole (nothing else
    /// keeps a reference into it), and the loop sees it only after this returns, as when a
    /// connection is created on the accepting thread before its loop takes it.
    public init(sending value: sending Value, loop: EventLoop) {
        self.loop = loop
        storage = value
    }

    /// The value. Only on `loop` (checked in debug and test builds). Reads borrow it in place
    /// (`bound.value.field` copies the field, not the whole value).
    @inlinable
    public var value: Value {
        _read {
            assert(isAccessible, "LoopBound read off its loop")
            yield storage
        }
        _modify {
            assert(isAccessible, "LoopBound written off its loop")
            yield &storage
        }
    }

    /// Whether the calling thread may access `value`: it runs on `loop`. What the debug check
    /// asserts, exposed so tests can check it without trapping.
    @inlinable
    public var isAccessible: Bool { loop.inLoop }
}

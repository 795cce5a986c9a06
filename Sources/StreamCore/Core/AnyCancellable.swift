import Locking

/// A type-erasing cancellable that cancels when it is deinitialised.
///
/// Sendable: its mutable fields are guarded by `lock` (which makes accesses exclusive, so they
/// skip the dynamic exclusivity checks).
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    // Either a closure or, for `sink`, the subscriber itself (a class-bound existential: wrapping
    // it allocates no closure context, and copying it is a plain retain).
    @usableFromInline @exclusivity(unchecked) var cancelBody: (() -> Void)?
    @usableFromInline @exclusivity(unchecked) var canceller: (any AnyObject & Cancellable)?
    @usableFromInline let lock = Lock()

    /// Creates a cancellable that runs `cancel` once, on `cancel()` or at deinit.
    @inlinable
    public init(_ cancel: @escaping () -> Void) {
        cancelBody = cancel
    }

    /// Wraps another cancellable.
    @inlinable
    public init<C: Cancellable>(_ canceller: C) {
        cancelBody = canceller.cancel
    }

    /// Wraps a cancellable object, held as itself (no closure context to allocate).
    @inlinable
    init<C: AnyObject & Cancellable>(object canceller: C) {
        self.canceller = canceller
    }

    deinit {
        // Nobody else can reach `self` any more: no lock needed.
        cancelBody?()
        canceller?.cancel()
    }

    public func cancel() {
        lock.lock()
        let body = cancelBody.take()
        let canceller = self.canceller.take()
        lock.unlock()
        body?()
        canceller?.cancel()
    }

    /// Appends this cancellable to the collection.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Inserts this cancellable into the set.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

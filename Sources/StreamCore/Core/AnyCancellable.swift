/// A type-erasing cancellable that cancels when it is deinitialised.
///
/// Sendable: its one mutable field is guarded by `lock`.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    private var cancelBody: (() -> Void)?
    private let lock = Lock()

    /// Creates a cancellable that runs `cancel` once, on `cancel()` or at deinit.
    public init(_ cancel: @escaping () -> Void) {
        cancelBody = cancel
    }

    /// Wraps another cancellable.
    public init<C: Cancellable>(_ canceller: C) {
        cancelBody = canceller.cancel
    }

    deinit { cancel() }

    public func cancel() {
        lock.lock()
        let body = cancelBody
        cancelBody = nil
        lock.unlock()
        body?()
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

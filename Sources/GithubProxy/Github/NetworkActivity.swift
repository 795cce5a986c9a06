import Foundation
import StreamCore

/// The seed's `networkActivityPublisher`, with its guarantees made explicit: every `true` is
/// followed by exactly one `false`, and activities never overlap — beginning a new one ends the
/// previous one first.
///
/// `publisher` sends under a lock so that events leave in the order they happened; a subscriber
/// must not call back into this object.
public final class NetworkActivity: @unchecked Sendable {
    // Sendable: `current` and `nextID` are guarded by `lock`; `subject` is thread-safe.

    /// Identifies one activity, for `end(_:)`.
    public struct Token: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private let lock = NSLock()
    private let subject = PassthroughSubject<Bool, Never>()
    private var current: UInt64?
    private var nextID: UInt64 = 0

    public init() {}

    /// `true` when an activity begins, `false` when it ends.
    public var publisher: AnyPublisher<Bool, Never> { subject.eraseToAnyPublisher() }

    /// Begins an activity, ending the current one first if there is one.
    public func begin() -> Token {
        lock.lock()
        defer { lock.unlock() }
        if current != nil { subject.send(false) }
        nextID += 1
        current = nextID
        subject.send(true)
        return Token(id: nextID)
    }

    /// Ends the activity if it is still the current one; otherwise does nothing.
    public func end(_ token: Token) {
        lock.lock()
        defer { lock.unlock() }
        guard current == token.id else { return }
        current = nil
        subject.send(false)
    }
}

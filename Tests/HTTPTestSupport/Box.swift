import Foundation

/// A value shared between a test and the callbacks or threads it starts.
public final class Box<Value>: @unchecked Sendable {
    // Sendable: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) { stored = value }

    public var value: Value { lock.withLock { stored } }

    public func mutate<R>(_ change: (inout Value) -> R) -> R { lock.withLock { change(&stored) } }
}

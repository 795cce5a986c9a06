import Locking

/// A unique identifier for identifying publisher streams.
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
    private let rawValue: UInt64

    /// Creates a unique identifier.
    public init() {
        rawValue = CombineIdentifier.counter.next()
    }

    /// Creates an identifier derived from an object's identity.
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj).hashValue)) | (1 << 63)
    }

    public var description: String { "0x" + String(rawValue, radix: 16) }

    private static let counter = Counter()

    /// Sequence of fresh identifiers. Safe to share: its only state is behind `lock`.
    private final class Counter: @unchecked Sendable {
        private let lock = Lock()
        private var value: UInt64 = 0
        func next() -> UInt64 {
            lock.lock(); defer { lock.unlock() }
            value &+= 1
            return value
        }
    }
}

/// A type that provides a unique identifier for publisher streams.
public protocol CustomCombineIdentifierConvertible {
    /// The identifier of this stream element.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

import Synchronization

/// A unique identifier for identifying publisher streams.
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
    private let rawValue: UInt64

    /// Creates a unique identifier.
    public init() {
        rawValue = CombineIdentifier.counter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Creates an identifier derived from an object's identity.
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj).hashValue)) | (1 << 63)
    }

    public var description: String { "0x" + String(rawValue, radix: 16) }

    /// The last fresh identifier handed out.
    private static let counter = Atomic<UInt64>(0)
}

/// A type that provides a unique identifier for publisher streams.
public protocol CustomCombineIdentifierConvertible {
    /// The identifier of this stream element.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

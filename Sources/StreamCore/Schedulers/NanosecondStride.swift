import Dispatch

/// A signed number of nanoseconds: the stride of `DispatchQueue`'s, `ImmediateScheduler`'s and
/// the test schedulers' time types. Integer and float literals are seconds.
public struct NanosecondStride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable, Codable,
    Sendable, ExpressibleByFloatLiteral, CustomStringConvertible
{
    public typealias Magnitude = Int
    public typealias IntegerLiteralType = Int
    public typealias FloatLiteralType = Double

    /// The length of the stride in nanoseconds (may be negative, despite the name Apple gave it).
    public var magnitude: Int

    /// Creates a stride of `nanoseconds`.
    public init(nanoseconds: Int) { magnitude = nanoseconds }

    public init(integerLiteral value: Int) { magnitude = value.multipliedReportingOverflow(by: 1_000_000_000).partialValue }

    public init(floatLiteral value: Double) { self = .seconds(value) }

    public init?<T: BinaryInteger>(exactly source: T) {
        guard let seconds = Int(exactly: source) else { return nil }
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        magnitude = nanoseconds
    }

    /// Creates a stride of `timeInterval` (`.never` is the longest stride there is), as Apple's
    /// `DispatchQueue.SchedulerTimeType.Stride.init(_:)`.
    public init(_ timeInterval: DispatchTimeInterval) {
        func scaled(_ value: Int, by factor: Int) -> Int {
            let (product, overflow) = value.multipliedReportingOverflow(by: factor)
            return overflow ? (value < 0 ? Int.min : Int.max) : product
        }
        switch timeInterval {
        case .seconds(let s): magnitude = scaled(s, by: 1_000_000_000)
        case .milliseconds(let ms): magnitude = scaled(ms, by: 1_000_000)
        case .microseconds(let us): magnitude = scaled(us, by: 1_000)
        case .nanoseconds(let ns): magnitude = ns
        case .never: magnitude = Int.max
        @unknown default: magnitude = Int.max
        }
    }

    /// Creates a stride of `timeInterval` seconds.
    public init(_ timeInterval: Double) { self = .seconds(timeInterval) }

    /// The stride as a `DispatchTimeInterval`, as Apple's
    /// `DispatchQueue.SchedulerTimeType.Stride.timeInterval`.
    public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

    /// The stride in seconds.
    public var seconds: Double { Double(magnitude) / 1e9 }

    public var description: String { "\(seconds)s" }

    public static func seconds(_ s: Int) -> Self { Self(nanoseconds: s * 1_000_000_000) }
    public static func seconds(_ s: Double) -> Self { Self(nanoseconds: Int((s * 1e9).rounded())) }
    public static func milliseconds(_ ms: Int) -> Self { Self(nanoseconds: ms * 1_000_000) }
    public static func microseconds(_ us: Int) -> Self { Self(nanoseconds: us * 1_000) }
    public static func nanoseconds(_ ns: Int) -> Self { Self(nanoseconds: ns) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
    public static func + (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.magnitude + rhs.magnitude) }
    public static func - (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.magnitude - rhs.magnitude) }
    public static func * (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.magnitude * rhs.magnitude) }
    public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
    public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
    public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
}

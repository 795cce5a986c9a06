extension Subscribers {
    /// A requested number of items, sent to a publisher from a subscriber through the subscription.
    ///
    /// Arithmetic saturates: `.unlimited` absorbs additions and subtractions, sums that overflow
    /// become `.unlimited`, and differences never go below `.none`.
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, Sendable, CustomStringConvertible {
        @usableFromInline let rawValue: UInt

        @inlinable init(rawValue: UInt) { self.rawValue = min(UInt(Int.max) + 1, rawValue) }

        /// A request for as many values as the publisher can produce.
        @inlinable public static var unlimited: Demand { Demand(rawValue: UInt(Int.max) + 1) }
        /// A request for no elements from the publisher.
        @inlinable public static var none: Demand { Demand(rawValue: 0) }

        /// A request for a maximum number of elements; `value` must not be negative.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            precondition(value >= 0, "demand cannot be negative")
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` when unlimited.
        @inlinable
        public var max: Int? { self == .unlimited ? nil : Int(rawValue) }

        public var description: String { self == .unlimited ? "unlimited" : "max(\(rawValue))" }

        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited || rhs == .unlimited { return .unlimited }
            let (sum, overflow) = Int(lhs.rawValue).addingReportingOverflow(Int(rhs.rawValue))
            return overflow ? .unlimited : .max(sum)
        }

        @inlinable public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }

        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            let (sum, overflow) = Int(lhs.rawValue).addingReportingOverflow(rhs)
            return overflow ? .unlimited : .max(Swift.max(0, sum))
        }

        @inlinable public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            let (product, overflow) = Int(lhs.rawValue).multipliedReportingOverflow(by: rhs)
            return overflow ? .unlimited : .max(Swift.max(0, product))
        }

        @inlinable public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs == .unlimited { return .none }
            return lhs.rawValue < rhs.rawValue ? .none : Demand(rawValue: lhs.rawValue - rhs.rawValue)
        }

        @inlinable public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            let (difference, overflow) = Int(lhs.rawValue).subtractingReportingOverflow(rhs)
            return overflow ? .none : .max(Swift.max(0, difference))
        }

        @inlinable public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

        @inlinable public static func > (lhs: Demand, rhs: Int) -> Bool {
            lhs == .unlimited || Int(lhs.rawValue) > rhs
        }
        @inlinable public static func >= (lhs: Demand, rhs: Int) -> Bool {
            lhs == .unlimited || Int(lhs.rawValue) >= rhs
        }
        @inlinable public static func > (lhs: Int, rhs: Demand) -> Bool {
            rhs != .unlimited && lhs > Int(rhs.rawValue)
        }
        @inlinable public static func >= (lhs: Int, rhs: Demand) -> Bool {
            rhs != .unlimited && lhs >= Int(rhs.rawValue)
        }
        @inlinable public static func < (lhs: Demand, rhs: Int) -> Bool {
            lhs != .unlimited && Int(lhs.rawValue) < rhs
        }
        @inlinable public static func < (lhs: Int, rhs: Demand) -> Bool {
            rhs == .unlimited || lhs < Int(rhs.rawValue)
        }
        @inlinable public static func <= (lhs: Demand, rhs: Int) -> Bool {
            lhs != .unlimited && Int(lhs.rawValue) <= rhs
        }
        @inlinable public static func <= (lhs: Int, rhs: Demand) -> Bool {
            rhs == .unlimited || lhs <= Int(rhs.rawValue)
        }
        @inlinable public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }
        @inlinable public static func == (lhs: Demand, rhs: Int) -> Bool {
            lhs != .unlimited && Int(lhs.rawValue) == rhs
        }
        @inlinable public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }
        @inlinable public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }
        @inlinable public static func != (lhs: Int, rhs: Demand) -> Bool { !(rhs == lhs) }

        public init(from decoder: Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(UInt.self))
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}

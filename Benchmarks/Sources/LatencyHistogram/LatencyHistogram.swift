import Histogram

/// Latency samples of a load tool, kept in HdrHistogram (`Histogram`, three significant digits,
/// auto-resizing) instead of a sorted array: memory does not grow with the number of samples,
/// and the percentiles are HdrHistogram's (nearest rank, reported as the highest value
/// equivalent to the sample at that rank, so within 0.1% of it).
///
/// Values are signed: a latency computed by subtracting a modelled part (SessionLoad's
/// server-added time) can come out below zero. Negative values go to a second histogram of their
/// magnitudes, and a quantile that falls among them is read from it mirrored. The exact minimum,
/// maximum and mean are tracked beside the histograms.
public struct LatencyHistogram: Sendable {
    private var positive = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
    private var negative = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
    /// The exact extremes and sum of the values recorded.
    public private(set) var min: Int64 = .max
    public private(set) var max: Int64 = .min
    private var sum: Double = 0

    public init() {}

    /// The number of values recorded.
    public var count: Int { Int(positive.totalCount + negative.totalCount) }
    public var isEmpty: Bool { count == 0 }

    /// The mean of the values recorded (exact, not from the buckets); nil when empty.
    public var mean: Double? { isEmpty ? nil : sum / Double(count) }

    public mutating func record(_ value: Int64) {
        if value >= 0 {
            positive.record(UInt64(value))
        } else {
            negative.record(value.magnitude)
        }
        min = Swift.min(min, value)
        max = Swift.max(max, value)
        sum += Double(value)
    }

    public mutating func record(_ value: UInt64) { record(Int64(clamping: value)) }

    /// Adds every value of `other` (a shard's or a thread's histogram) to this one.
    public mutating func merge(_ other: LatencyHistogram) {
        positive.add(other.positive)
        negative.add(other.negative)
        min = Swift.min(min, other.min)
        max = Swift.max(max, other.max)
        sum += other.sum
    }

    /// The value at quantile `q` (0...1): the sample of rank ⌈q·n⌉ (at least 1) in ascending
    /// order, at HdrHistogram's precision; nil when empty. `q` = 1 gives the exact maximum.
    public func value(atQuantile q: Double) -> Int64? {
        let total = count
        guard total > 0 else { return nil }
        if q >= 1 { return max }
        if q <= 0 { return min }
        let rank = Swift.max(1, Int((q * Double(total)).rounded(.up)))
        let negatives = Int(negative.totalCount)
        if rank <= negatives {
            // The rank-th smallest negative value is the (negatives − rank + 1)-th smallest magnitude.
            let magnitudeRank = negatives - rank + 1
            let magnitude = negative.valueAtPercentile(100 * Double(magnitudeRank) / Double(negatives))
            return Swift.max(min, -Int64(clamping: magnitude))
        }
        let positiveRank = rank - negatives
        let value = positive.valueAtPercentile(100 * Double(positiveRank) / Double(positive.totalCount))
        return Swift.min(max, Int64(clamping: value))
    }
}

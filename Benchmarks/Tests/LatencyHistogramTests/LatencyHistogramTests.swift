import LatencyHistogram
import Testing

@Suite struct LatencyHistogramTests {
    /// The nearest-rank percentile the load tools computed from sorted arrays before (#30).
    private func nearestRank(_ sorted: [Int64], _ q: Double) -> Int64 {
        sorted[max(0, min(sorted.count - 1, Int((q * Double(sorted.count)).rounded(.up)) - 1))]
    }

    @Test func emptyHasNoValues() {
        let histogram = LatencyHistogram()
        #expect(histogram.isEmpty)
        #expect(histogram.value(atQuantile: 0.5) == nil)
        #expect(histogram.mean == nil)
    }

    @Test func smallValuesAreExact() {
        var histogram = LatencyHistogram()
        for value in Int64(1)...100 { histogram.record(value) }
        #expect(histogram.count == 100)
        #expect(histogram.value(atQuantile: 0.5) == 50)
        #expect(histogram.value(atQuantile: 0.9) == 90)
        #expect(histogram.value(atQuantile: 0.99) == 99)
        #expect(histogram.value(atQuantile: 1) == 100)
        #expect(histogram.min == 1 && histogram.max == 100)
        #expect(histogram.mean == 50.5)
    }

    @Test func negativeValuesKeepTheirOrder() {
        var histogram = LatencyHistogram()
        for value: Int64 in [2, -3, 1, -5] { histogram.record(value) }
        #expect(histogram.value(atQuantile: 0.25) == -5)
        #expect(histogram.value(atQuantile: 0.5) == -3)
        #expect(histogram.value(atQuantile: 0.75) == 1)
        #expect(histogram.value(atQuantile: 0.99) == 2)
        #expect(histogram.min == -5)
        #expect(histogram.mean == -1.25)
    }

    @Test func matchesNearestRankWithinAThousandth() {
        var generator = SystemRandomNumberGenerator()
        var samples: [Int64] = []
        var histogram = LatencyHistogram()
        for _ in 0..<50_000 {
            // Nanoseconds from −5 ms to 2 s, most of them small, as the server-added times.
            let value = Int64.random(in: -5_000_000...2_000_000_000, using: &generator) / Int64.random(in: 1...1_000, using: &generator)
            samples.append(value)
            histogram.record(value)
        }
        samples.sort()
        for q in [0.01, 0.1, 0.5, 0.9, 0.99, 0.999] {
            let exact = nearestRank(samples, q)
            let value = histogram.value(atQuantile: q) ?? .min
            #expect(abs(Double(value - exact)) <= max(1, abs(Double(exact)) / 1000), "q \(q): \(value) against \(exact)")
        }
        #expect(histogram.max == samples.last)
    }

    @Test func mergeAddsEverySample() {
        var a = LatencyHistogram(), b = LatencyHistogram()
        for value in Int64(1)...50 { a.record(value) }
        for value in Int64(51)...100 { b.record(value) }
        b.record(Int64(-7))
        a.merge(b)
        #expect(a.count == 101)
        #expect(a.value(atQuantile: 0.5) == 50)
        #expect(a.min == -7 && a.max == 100)
    }
}

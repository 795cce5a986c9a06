import Dispatch
import Foundation
import LatencyHistogram

/// Runs `loops` threads, each sending one request after another for `seconds`, and collects
/// every request's latency.
struct LoadRun {
    let loops: Int
    let seconds: Double

    struct Outcome {
        var requests: Int
        var failures: Int
        var elapsed: Double
        var latencies: LatencyHistogram  // nanoseconds

        var requestsPerSecond: Double { Double(requests) / elapsed }

        /// The latency in ms at quantile `p` (HdrHistogram's nearest rank); NaN when none.
        func percentile(_ p: Double) -> Double {
            latencies.value(atQuantile: p).map { Double($0) / 1e6 } ?? .nan
        }
    }

    /// `send` performs one request and blocks until it completes; returns whether it succeeded.
    func run(_ send: @escaping @Sendable () -> Bool) -> Outcome {
        let results = Results()
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<loops {
            group.enter()
            let thread = Thread {
                var latencies = LatencyHistogram()
                var failures = 0
                while true {
                    let begin = DispatchTime.now().uptimeNanoseconds
                    guard begin < deadline else { break }
                    if send() {
                        latencies.record(DispatchTime.now().uptimeNanoseconds - begin)
                    } else {
                        failures += 1
                    }
                }
                results.add(latencies, failures: failures)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let (latencies, failures) = results.value
        return Outcome(requests: latencies.count, failures: failures, elapsed: elapsed, latencies: latencies)
    }

    private final class Results: @unchecked Sendable {
        // Sendable: guarded by `lock`.
        private let lock = NSLock()
        private var latencies = LatencyHistogram()
        private var failures = 0

        func add(_ more: LatencyHistogram, failures more2: Int) {
            lock.withLock {
                latencies.merge(more)
                failures += more2
            }
        }

        var value: (LatencyHistogram, Int) { lock.withLock { (latencies, failures) } }
    }
}

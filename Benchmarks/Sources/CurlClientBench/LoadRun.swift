import Dispatch
import Foundation

/// Runs `loops` threads, each sending one request after another for `seconds`, and collects
/// every request's latency.
struct LoadRun {
    let loops: Int
    let seconds: Double

    struct Outcome {
        var requests: Int
        var failures: Int
        var elapsed: Double
        var latencies: [UInt64]  // nanoseconds, sorted

        var requestsPerSecond: Double { Double(requests) / elapsed }

        func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return .nan }
            let index = min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.up)) - 1)
            return Double(latencies[max(0, index)]) / 1e6
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
                var latencies: [UInt64] = []
                latencies.reserveCapacity(1 << 16)
                var failures = 0
                while true {
                    let begin = DispatchTime.now().uptimeNanoseconds
                    guard begin < deadline else { break }
                    if send() {
                        latencies.append(DispatchTime.now().uptimeNanoseconds - begin)
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
        return Outcome(requests: latencies.count, failures: failures, elapsed: elapsed, latencies: latencies.sorted())
    }

    private final class Results: @unchecked Sendable {
        // Sendable: guarded by `lock`.
        private let lock = NSLock()
        private var latencies: [UInt64] = []
        private var failures = 0

        func add(_ more: [UInt64], failures more2: Int) {
            lock.withLock {
                latencies.append(contentsOf: more)
                failures += more2
            }
        }

        var value: ([UInt64], Int) { lock.withLock { (latencies, failures) } }
    }
}

import Foundation
import LatencyHistogram

/// The result of a run: its counts, the measured window, the round-trip latencies and the
/// process's CPU time over that window. Printed with wsload's JSON fields, plus `round_trips`
/// and `cpu_us_per_round_trip`.
struct LoadReport: Sendable {
    var counts: LoadCounts
    /// Nanoseconds measured: in echo mode from the moment every connection was open (else from
    /// the start) to the end.
    var nanoseconds: UInt64
    /// Round-trip latencies in µs.
    var latencies: LatencyHistogram
    /// The process's user + system CPU time over the window, in µs.
    var cpuMicroseconds: Double

    var seconds: Double { Double(nanoseconds) / 1e9 }
    var rate: Double { seconds > 0 ? Double(counts.messages) / seconds : 0 }

    /// The latency in µs at quantile `p` of the round trips (HdrHistogram's nearest rank, see
    /// `LatencyHistogram`); 0 when there were none, as wsload prints.
    func percentile(_ p: Double) -> Int64 { latencies.value(atQuantile: p) ?? 0 }

    /// The longest round trip in µs; 0 when there were none.
    var maxLatency: Int64 { latencies.isEmpty ? 0 : latencies.max }

    func json(mode: String, connections: Int, size: Int) -> String {
        let cpuPerRoundTrip = counts.messages == 0 ? 0 : cpuMicroseconds / Double(counts.messages)
        let fields: [(String, String)] = [
            ("mode", "\"\(mode)\""), ("connections", "\(connections)"), ("size", "\(size)"),
            ("seconds", String(format: "%.2f", seconds)), ("messages", "\(counts.messages)"),
            ("rate", String(format: "%.0f", rate)),
            ("p50_us", "\(percentile(0.5))"), ("p90_us", "\(percentile(0.9))"), ("p99_us", "\(percentile(0.99))"),
            ("max_us", "\(maxLatency)"),
            ("handshakes", "\(counts.handshakes)"), ("open", "\(counts.open)"),
            ("connect_failures", "\(counts.connectFailures)"), ("handshake_failures", "\(counts.handshakeFailures)"),
            ("closed_by_server", "\(counts.closedByServer)"), ("mismatched", "\(counts.mismatched)"),
            ("errors", "\(counts.errors(idle: mode == "idle"))"),
            ("round_trips", "\(latencies.count)"),
            ("cpu_us_per_round_trip", String(format: "%.2f", cpuPerRoundTrip)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    func line(mode: String, connections: Int, size: Int, seconds requested: Int) -> String {
        let errors = counts.errors(idle: mode == "idle")
        if mode == "idle" {
            return "WebSocketClientBench: idle c=\(connections) d=\(requested): \(counts.handshakes) handshakes, "
                + "\(counts.open) open at end, errors=\(errors)"
        }
        return "WebSocketClientBench: echo c=\(connections) s=\(size) d=\(requested): "
            + String(format: "%.0f msg/s", rate)
            + " p50=\(percentile(0.5))us p90=\(percentile(0.9))us p99=\(percentile(0.99))us max=\(maxLatency)us errors=\(errors)"
    }
}

/// The process's CPU time (user + system) in µs, from getrusage.
enum ProcessCPU {
    static var microseconds: Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func micro(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
        return micro(usage.ru_utime) + micro(usage.ru_stime)
    }
}

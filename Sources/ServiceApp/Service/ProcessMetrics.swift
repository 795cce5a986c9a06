import Foundation
import Metrics

/// The process's Prometheus standard metrics, read from Linux's `/proc`:
/// `process_cpu_seconds_total`, `process_resident_memory_bytes`, `process_virtual_memory_bytes`,
/// `process_open_fds` and `process_start_time_seconds`. `ProcessMetricsService` samples them;
/// `ServiceMetrics` makes the one instance once the Prometheus backend is bootstrapped.
struct ProcessMetrics: Sendable {
    /// What one line of `/proc/self/stat` says, in seconds and bytes.
    struct Stat: Equatable, Sendable {
        /// User plus system CPU time.
        var cpuSeconds: Double
        var residentBytes: Int
        var virtualBytes: Int
        /// Since boot.
        var startSeconds: Double
    }

    private let cpu = FloatingPointCounter(label: "process_cpu_seconds_total")
    private let resident = Gauge(label: "process_resident_memory_bytes")
    private let virtual = Gauge(label: "process_virtual_memory_bytes")
    private let openFiles = Gauge(label: "process_open_fds")
    private let startTime = Gauge(label: "process_start_time_seconds")

    /// Reads `/proc` and records every metric; `countedCPUSeconds` is the CPU time already
    /// counted (the counter only grows), and the result the new total. Nothing is recorded when
    /// `/proc` cannot be read.
    func sample(countedCPUSeconds: Double) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let stat = Self.parse(stat: text, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))),
                                  pageSize: sysconf(Int32(_SC_PAGESIZE)))
        else { return countedCPUSeconds }
        if stat.cpuSeconds > countedCPUSeconds { cpu.increment(by: stat.cpuSeconds - countedCPUSeconds) }
        resident.record(stat.residentBytes)
        virtual.record(stat.virtualBytes)
        if let files = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") { openFiles.record(files.count) }
        if let boot = Self.bootTime() { startTime.record(boot + stat.startSeconds) }
        return max(stat.cpuSeconds, countedCPUSeconds)
    }

    /// Parses `/proc/PID/stat` (proc(5)): the fields after the parenthesised command name, which
    /// may itself hold spaces and parentheses.
    static func parse(stat text: String, ticksPerSecond: Double, pageSize: Int) -> Stat? {
        guard let close = text.lastIndex(of: ")"), ticksPerSecond > 0 else { return nil }
        // Field 3 (state) is the first after the name; utime is field 14, stime 15, starttime
        // 22, vsize 23, rss 24.
        let fields = text[text.index(after: close)...].split(separator: " ")
        func field(_ number: Int) -> Double? { fields.count > number - 3 ? Double(fields[number - 3]) : nil }
        guard let user = field(14), let system = field(15), let start = field(22), let vsize = field(23),
            let rss = field(24)
        else { return nil }
        return Stat(
            cpuSeconds: (user + system) / ticksPerSecond, residentBytes: Int(rss) * pageSize,
            virtualBytes: Int(vsize), startSeconds: start / ticksPerSecond)
    }

    /// Seconds since the epoch at boot (`btime` in `/proc/stat`).
    private static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("btime ") })
        else { return nil }
        return Double(line.dropFirst("btime ".count))
    }
}

import Foundation

/// How many cores this process may actually use — the default number of event loops.
///
/// `ProcessInfo.activeProcessorCount` counts the machine's online CPUs; a process pinned with
/// `taskset` or `docker --cpuset-cpus`, or limited by `docker --cpus`, gets fewer. This reads the
/// affinity list from `/proc/self/status` and caps it by the cgroup CPU quota (v2 `cpu.max`, v1
/// `cpu.cfs_quota_us`), as SwiftNIO's `System.coreCount` does.
public enum AvailableCores {
    /// At least 1.
    public static var count: Int {
        var cores = ProcessInfo.processInfo.activeProcessorCount
        if let allowed = read("/proc/self/status").flatMap(allowedCPUs(status:)) {
            cores = min(cores, allowed)
        }
        if let quota = cgroupQuota() {
            cores = min(cores, quota)
        }
        return max(1, cores)
    }

    /// The number of CPUs in the `Cpus_allowed_list:` line of `/proc/PID/status` ("0-3,6").
    static func allowedCPUs(status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else {
            return nil
        }
        let list = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
        var count = 0
        for range in list.split(separator: ",") {
            let bounds = range.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch bounds.count {
            case 1:
                guard bounds[0] != nil else { return nil }
                count += 1
            case 2:
                guard let low = bounds[0], let high = bounds[1], high >= low else { return nil }
                count += high - low + 1
            default:
                return nil
            }
        }
        return count > 0 ? count : nil
    }

    /// Cores granted by a cgroup v2 `cpu.max` line ("150000 100000" → 2; "max 100000" → nil).
    static func quotaCores(cpuMax: String) -> Int? {
        let fields = cpuMax.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]) else { return nil }
        return quotaCores(quota: quota, period: period)
    }

    static func quotaCores(quota: Int, period: Int) -> Int? {
        guard quota > 0, period > 0 else { return nil }
        return (quota + period - 1) / period
    }

    private static func cgroupQuota() -> Int? {
        if let cpuMax = read("/sys/fs/cgroup/cpu.max") {
            return quotaCores(cpuMax: cpuMax)
        }
        guard let quota = read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
            let period = read("/sys/fs/cgroup/cpu/cpu.cfs_period_us").flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        else { return nil }
        return quotaCores(quota: quota, period: period)
    }

    private static func read(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}

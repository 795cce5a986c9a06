// TimerProbe: how late a timer fires on an event loop with nothing else to do, on this machine,
// now. One HTTPServer EventLoop with the service's timer slack schedules a timer every
// `--interval-us` for `--duration` seconds, each at an absolute deadline, and records how long
// after its deadline each one ran. scripts/session-load.sh runs it beside each load run, so the
// service's own timer lateness (pipeline_timer_lateness_seconds) has the machine's floor next to
// it: what the kernel, the hypervisor and the other processes add to a wake-up when the loop
// itself does no work.
//
// Usage: TimerProbe [--duration 40] [--interval-us 1000] [--slack-us 500]
// Prints one JSON object: {"timers": n, "p50Ms": …, "p99Ms": …, "p999Ms": …, "maxMs": …}.
import Foundation
import HTTPServer
import LatencyHistogram
import Locking

var duration = 40.0, intervalMicroseconds = 1_000, slackMicroseconds = 500
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fatalError("\(flag) needs a value") }
    switch flag {
    case "--duration": duration = Double(value) ?? duration
    case "--interval-us": intervalMicroseconds = Int(value) ?? intervalMicroseconds
    case "--slack-us": slackMicroseconds = Int(value) ?? slackMicroseconds
    default: fatalError("unknown option \(flag) (--duration, --interval-us, --slack-us)")
    }
}
guard duration > 0, intervalMicroseconds > 0, slackMicroseconds >= 0 else {
    fatalError("--duration and --interval-us must be positive, --slack-us at least 0")
}

let group = try EventLoopGroup(count: 1, label: "timer-probe", timerSlack: .microseconds(slackMicroseconds))
let loop = group.next()
let lateness = Locked(LatencyHistogram())
let finished = DispatchSemaphore(value: 0)
let interval = UInt64(intervalMicroseconds) * 1_000
let end = DispatchTime.now().uptimeNanoseconds + UInt64(duration * 1e9)

/// Schedules the timer due at `deadline`; when it fires, records its lateness and schedules the
/// next one an interval after this deadline (not after the firing, so lateness does not drift).
@Sendable func arm(_ deadline: UInt64) {
    guard deadline < end else {
        finished.signal()
        return
    }
    _ = loop.schedule(at: DispatchTime(uptimeNanoseconds: deadline)) {
        let late = DispatchTime.now().uptimeNanoseconds &- deadline
        lateness.withLock { $0.record(Int64(clamping: late)) }
        arm(deadline + interval)
    }
}
loop.execute { arm(DispatchTime.now().uptimeNanoseconds + interval) }
finished.wait()
group.stop()

let histogram = lateness.withLock { $0 }
func milliseconds(_ q: Double) -> String {
    String(format: "%.3f", Double(histogram.value(atQuantile: q) ?? 0) / 1e6)
}
print(
    "{\"timers\": \(histogram.count), \"p50Ms\": \(milliseconds(0.5)), \"p99Ms\": \(milliseconds(0.99)), "
        + "\"p999Ms\": \(milliseconds(0.999)), \"maxMs\": \(String(format: "%.3f", Double(histogram.max) / 1e6))}"
)

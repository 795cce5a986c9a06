// HTTPServer's WebSocketClient under wsload's workload, for scripts/ws-client.sh: C connections
// on one event loop, each sending one S-byte text message and waiting for its echo before the
// next, for D seconds. Prints wsload's JSON fields (rate, p50_us, p99_us, errors) plus the
// process's CPU time per round trip.
//
// Usage: WebSocketClientBench [-c 64] [-d 10] [-s 32] [--deflate] ws://127.0.0.1:PORT/ws/echo
import Dispatch
import Foundation
import HTTPServer

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    arguments.firstIndex(of: name).flatMap { Int(arguments[$0 + 1]) } ?? fallback
}
let connections = option("-c", 64)
let seconds = option("-d", 10)
let size = option("-s", 32)
let deflate = arguments.contains("--deflate")
guard let url = arguments.last.flatMap(URL.init(string:)), url.scheme == "ws" else {
    FileHandle.standardError.write(Data("usage: WebSocketClientBench [-c N] [-d S] [-s B] [--deflate] ws://…\n".utf8))
    exit(2)
}

/// Every connection's measurements; only touched on the one loop.
final class Run: @unchecked Sendable {
    // Sendable: confined to `loop` (all client events arrive there).
    let payload = String(repeating: "x", count: size)
    var latencies: [UInt64] = []
    var errors = 0
    var finished = 0
    var sentAt: [Int: UInt64] = [:]
    let end: UInt64
    let done = DispatchSemaphore(value: 0)

    init(end: UInt64) {
        self.end = end
        latencies.reserveCapacity(4_000_000)
    }
}

let group = try EventLoopGroup(count: 1, label: "wsclient.bench")
let run = Run(end: DispatchTime.now().uptimeNanoseconds + UInt64(seconds) * 1_000_000_000)
let configuration = WebSocketClientConfiguration(deflate: deflate ? PerMessageDeflateConfiguration() : nil)
var usageBefore = rusage()
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usageBefore)
let loop = group.next()

/// Connects client `index`.
@Sendable func start(_ index: Int) throws(WebSocketClientError) {
    _ = try WebSocketClient.connect(to: url, configuration: configuration, loop: loop) { client, event in
        let now = DispatchTime.now().uptimeNanoseconds
        switch event {
        case .opened:
            run.sentAt[index] = now
            client.send(text: run.payload)
        case .message(.text(let text)) where text.utf8.count == size:
            if let sent = run.sentAt[index] { run.latencies.append(now - sent) }
            if now < run.end {
                run.sentAt[index] = now
                client.send(text: run.payload)
            } else {
                client.close()
            }
        case .message:
            run.errors += 1
            client.close()
        case .closed(let code, _):
            if code != .normalClosure { run.errors += 1 }
            run.finished += 1
            if run.finished == connections { run.done.signal() }
        case .failed:
            run.errors += 1
            run.finished += 1
            if run.finished == connections { run.done.signal() }
        }
    }
}

for index in 0 ..< connections { try start(index) }
run.done.wait()
var usageAfter = rusage()
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usageAfter)
func microseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
let cpu = microseconds(usageAfter.ru_utime) + microseconds(usageAfter.ru_stime)
    - microseconds(usageBefore.ru_utime) - microseconds(usageBefore.ru_stime)
let sorted = loop.sync { run.latencies.sorted() }
let count = sorted.count
func percentile(_ p: Double) -> UInt64 { count == 0 ? 0 : sorted[min(count - 1, Int(Double(count) * p))] / 1000 }
print(#"{"rate": \#(Double(count) / Double(seconds)), "p50_us": \#(percentile(0.5)), "p99_us": \#(percentile(0.99)), "errors": \#(run.errors), "round_trips": \#(count), "cpu_us_per_round_trip": \#(count == 0 ? 0 : cpu / Double(count))}"#)

import Foundation
import HTTPServer
import LatencyHistogram

/// Idle mode: opens connections at a steady rate and holds them, sending nothing (the client
/// answers the server's pings); reports how many handshakes succeeded and how many connections
/// are still open at the end.
final class IdleLoad: @unchecked Sendable {
    // Sendable: `counts` and `stopped` are touched only on `loop`, where every client event
    // arrives; `run` reads them through `loop.sync`.
    private let connections: Int
    private let rate: Int
    private let loop: EventLoop
    private var counts: LoadCounts
    private var stopped = false

    init(connections: Int, rate: Int, loop: EventLoop) {
        self.connections = connections
        self.rate = rate
        self.loop = loop
        counts = LoadCounts(connections: connections)
    }

    /// Opens `rate` connections per second (the first at once) from this thread until all are
    /// open, holds them until `end` (MonotonicClock), and reports.
    func run(url: URL, configuration: WebSocketClientConfiguration, until end: UInt64) throws(WebSocketClientError) -> LoadReport {
        let started = MonotonicClock.now
        let cpuAtStart = ProcessCPU.microseconds
        var begun = 0
        while begun < connections, case let now = MonotonicClock.now, now < end {
            let due = min(connections, Int((now - started) * UInt64(rate) / 1_000_000_000) + 1)
            while begun < due {
                let index = begun
                _ = try WebSocketClient.connect(to: url, configuration: configuration, loop: loop) { [self] _, event in
                    handle(event, index: index)
                }
                begun += 1
            }
            MonotonicClock.sleep(until: min(end, now + 5_000_000))
        }
        MonotonicClock.sleep(until: end)
        let counts = loop.sync { [self] in
            stopped = true
            return self.counts
        }
        return LoadReport(
            counts: counts, nanoseconds: MonotonicClock.now - started, latencies: LatencyHistogram(),
            cpuMicroseconds: ProcessCPU.microseconds - cpuAtStart
        )
    }

    private func handle(_ event: WebSocketClient.Event, index: Int) {
        guard !stopped else { return }
        switch event {
        case .opened: counts.opened(index)
        case .message: counts.messages += 1
        case .closed: counts.ended(index, failure: nil)
        case .failed(let error): counts.ended(index, failure: error)
        }
    }
}

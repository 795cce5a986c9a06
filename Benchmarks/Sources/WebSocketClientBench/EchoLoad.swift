import Foundation
import HTTPServer
import LatencyHistogram

/// Echo mode: every connection sends one text message and, when a message comes back, the next;
/// round trips are counted from the moment every connection is open.
final class EchoLoad: @unchecked Sendable {
    // Sendable: every field below `loop` is touched only on `loop`, where every client event
    // arrives (`run` sets the first values before the first connect, which the loop's task
    // queue orders before it, and reads the result through `loop.sync`).
    private let connections: Int
    private let size: Int
    private let payload: String
    private let loop: EventLoop
    private var counts: LoadCounts
    /// When each connection's message in flight was sent.
    private var sentAt: [UInt64]
    /// Round-trip latencies in µs.
    private var latencies = LatencyHistogram()
    private var measuredFrom: UInt64 = 0
    private var cpuAtMeasuredFrom: Double = 0
    private var stopped = false

    init(connections: Int, size: Int, loop: EventLoop) {
        self.connections = connections
        self.size = size
        self.loop = loop
        payload = String(repeating: "x", count: size)
        counts = LoadCounts(connections: connections)
        sentAt = Array(repeating: 0, count: connections)
    }

    /// Connects every client, lets them run until `end` (MonotonicClock), and reports.
    func run(url: URL, configuration: WebSocketClientConfiguration, until end: UInt64) throws(WebSocketClientError) -> LoadReport {
        measuredFrom = MonotonicClock.now
        cpuAtMeasuredFrom = ProcessCPU.microseconds
        for index in 0 ..< connections {
            _ = try WebSocketClient.connect(to: url, configuration: configuration, loop: loop) { [self] client, event in
                handle(event, from: client, index: index)
            }
        }
        MonotonicClock.sleep(until: end)
        return loop.sync { [self] in finish() }
    }

    private func handle(_ event: WebSocketClient.Event, from client: WebSocketClient, index: Int) {
        guard !stopped else { return }
        let now = MonotonicClock.now
        switch event {
        case .opened:
            counts.opened(index)
            if counts.handshakes == connections { startMeasuring(at: now) }
            send(from: client, index: index, at: now)
        case .message(let message):
            counts.messages += 1
            if message.byteCount != size { counts.mismatched += 1 }
            latencies.record((now - sentAt[index]) / 1000)
            send(from: client, index: index, at: now)
        case .closed:
            counts.ended(index, failure: nil)
        case .failed(let error):
            counts.ended(index, failure: error)
        }
    }

    private func send(from client: WebSocketClient, index: Int, at now: UInt64) {
        sentAt[index] = now
        client.send(text: payload)
    }

    /// Every connection is open: what came before (the first round trips of the early ones) is
    /// not measured.
    private func startMeasuring(at now: UInt64) {
        measuredFrom = now
        cpuAtMeasuredFrom = ProcessCPU.microseconds
        counts.messages = 0
        latencies = LatencyHistogram()
    }

    /// Stops counting (later events are ignored) and reports.
    private func finish() -> LoadReport {
        stopped = true
        return LoadReport(
            counts: counts, nanoseconds: MonotonicClock.now - measuredFrom, latencies: latencies,
            cpuMicroseconds: ProcessCPU.microseconds - cpuAtMeasuredFrom
        )
    }
}

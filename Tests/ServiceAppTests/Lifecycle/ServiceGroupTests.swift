import FakeGithub
import Foundation
import HTTPTestSupport
import Logging
import ServiceLifecycle
import XCTest

@testable import ServiceApp

/// The service's parts as a `ServiceGroup`: a graceful shutdown drains the HTTP server first
/// (an open WebSocket closes with 1001), then stops the Redis subscriber, the curl driver and
/// metrics, in that order, and the group returns.
final class ServiceGroupTests: XCTestCase {
    func testGracefulShutdownDrainsTheHTTPServerThenStopsTheOtherServicesInOrder() throws {
        let fake = FakeGithub()
        let fakeURL = try fake.start()
        defer { fake.stop() }
        var config = ServiceConfig()
        config.host = "127.0.0.1"
        config.port = 0
        config.githubAPIURL = fakeURL
        config.drainTimeout = .seconds(3)
        // A Redis URL nothing listens on: the subscriber runs (and retries) all the same.
        config.redis.client = .init(host: "127.0.0.1", port: Int(try unusedLoopbackPort()), database: 0, poolSize: 1, timeout: .milliseconds(50))
        let records = LogRecords()
        let logger = Logger(label: "group") { _ in RecordingLogHandler(records: records) }
        let service = Service(config: config, logger: logger)
        // No signals: the test process keeps its own; the process tests send SIGTERM for real.
        let group = ServiceGroup(configuration: service.serviceGroupConfiguration(logger: logger, signals: []))
        let finished = DispatchSemaphore(value: 0)
        Task {
            do {
                try await group.run()
                records.append("group returned")
            } catch {
                records.append("group threw \(error)")
            }
            finished.signal()
        }

        let port = try XCTUnwrap(waitForPort(records), "no listening line: \(records.lines)")
        let session = try EventClient(port: port)
        try session.input("heck")
        XCTAssertEqual(try session.result(for: "heck").repos, 6, "a lookup through the curl driver")

        Task { await group.triggerGracefulShutdown() }
        XCTAssertEqual(try session.socket.readClose(), 1001, "WebSockets close with going away")
        try session.socket.sendClose(code: .goingAway)
        XCTAssertEqual(finished.wait(timeout: .now() + 3 + 5), .success, "the group returns within the drain time")

        let steps = ["draining", "drained", "redis subscriber stopped", "curl driver stopped", "metrics stopped", "group returned"]
        let positions = steps.map { step in records.lines.firstIndex { $0.hasPrefix("info \(step)") || $0.hasPrefix("debug \(step)") || $0 == step } }
        XCTAssertFalse(positions.contains(nil), "missing steps: \(zip(steps, positions).filter { $0.1 == nil }.map(\.0))\n\(records.lines)")
        XCTAssertEqual(positions.compactMap { $0 }, positions.compactMap { $0 }.sorted(), "shutdown order: \(records.lines)")
    }

    /// The port of the `listening on` line, within 20 s.
    private func waitForPort(_ records: LogRecords) -> UInt16? {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let line = records.lines.first(where: { $0.hasPrefix("info listening on http://127.0.0.1:") }),
               let port = line.split(separator: ":").last.flatMap({ UInt16($0) }) {
                return port
            }
            usleep(20_000)
        }
        return nil
    }
}

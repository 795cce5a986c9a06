import Foundation
import XCTest

@testable import ServiceApp

/// The metrics service's sample of `/proc`: Prometheus's standard `process_*` metrics.
final class ProcessMetricsTests: XCTestCase {
    func testParsesProcStatPastACommandNameWithSpacesAndParentheses() throws {
        // proc(5): pid (comm) state ppid … utime(14) stime(15) … starttime(22) vsize(23) rss(24) …
        let line = "4242 (Service (x) App) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 50 0 0 20 0 9 0 12345 413777920 9410 "
            + "18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0\n"
        let stat = try XCTUnwrap(ProcessMetrics.parse(stat: line, ticksPerSecond: 100, pageSize: 4096))
        XCTAssertEqual(stat, .init(cpuSeconds: 3, residentBytes: 9410 * 4096, virtualBytes: 413_777_920, startSeconds: 123.45))
        XCTAssertNil(ProcessMetrics.parse(stat: "4242 (cut) S 1 2", ticksPerSecond: 100, pageSize: 4096))
        XCTAssertNil(ProcessMetrics.parse(stat: "no parentheses", ticksPerSecond: 100, pageSize: 4096))
    }

    func testASampleReachesMetrics() throws {
        let metrics = ServiceMetrics()
        let counted = metrics.process.sample(countedCPUSeconds: 0)
        XCTAssertGreaterThan(counted, 0, "this process has used CPU time")
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        for name in ["process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes",
                     "process_open_fds", "process_start_time_seconds"] {
            XCTAssertTrue(text.contains("\n\(name) ") || text.hasPrefix("\(name) "), "\(name) missing:\n\(text)")
        }
        let start = text.split(separator: "\n").first { $0.hasPrefix("process_start_time_seconds ") }
            .flatMap { Double($0.split(separator: " ")[1]) }
        XCTAssertEqual(try XCTUnwrap(start), Date().timeIntervalSince1970, accuracy: 24 * 3600, "seconds since the epoch")
        // The counter only grows: a sample never counts a CPU time below the one already counted.
        XCTAssertEqual(metrics.process.sample(countedCPUSeconds: 1e9), 1e9)
    }
}

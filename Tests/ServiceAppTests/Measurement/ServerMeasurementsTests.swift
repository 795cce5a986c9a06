import Foundation
import HTTPTestSupport
import XCTest

/// The server's own latencies in `/metrics` (issue #29): how late the pipelines' timers fire, how
/// long an answer without upstream takes past the throttle, and each route's request durations.
/// The registry is process-wide, so each test compares a histogram's count before and after.
final class ServerMeasurementsTests: EndToEndTestCase {
    /// `_count` of one histogram series (0 before its first observation).
    private func count(_ series: String) throws -> Double {
        let text = try get("/metrics").text
        let prefix = if let brace = series.firstIndex(of: "{") {
            String(series[..<brace]) + "_count" + String(series[brace...])
        } else {
            series + "_count"
        }
        let line = text.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    func testRequestDurationsByRoute() throws {
        try startService()
        let healthz = try count(#"http_request_duration_seconds{route="/healthz"}"#)
        let users = try count(#"http_request_duration_seconds{route="/api/users/{login}"}"#)
        let unmatched = try count(#"http_request_duration_seconds{route="unmatched"}"#)
        XCTAssertEqual(try get("/healthz").status, 200)
        XCTAssertEqual(try get("/healthz").status, 200)
        XCTAssertEqual(try get("/api/users/heckj").status, 200)
        XCTAssertEqual(try get("/no/such/route").status, 404)
        XCTAssertEqual(try count(#"http_request_duration_seconds{route="/healthz"}"#), healthz + 2)
        XCTAssertEqual(try count(#"http_request_duration_seconds{route="/api/users/{login}"}"#), users + 1)
        XCTAssertEqual(try count(#"http_request_duration_seconds{route="unmatched"}"#), unmatched + 1)
        let text = try get("/metrics").text
        XCTAssertTrue(text.contains("# TYPE http_request_duration_seconds histogram"))
    }

    /// `h` is answered without upstream (too short): timed. `hec` goes upstream: not timed. A
    /// value typed inside a window leaves on the throttle's timer: one lateness recorded.
    func testCachedAnswersAndTimerLatenessOfASession() throws {
        try startVirtualService()
        let client = try connect()
        let cached = try count("pipeline_cached_result_seconds")
        let timers = try count("pipeline_timer_lateness_seconds")

        try client.input("h")
        try client.barrier()
        scheduler.advance()  // the first value of a quiet window leaves at once (no timer)
        XCTAssertEqual(try client.result(for: "h").status, "too_short")
        try client.barrier()
        XCTAssertEqual(try count("pipeline_cached_result_seconds"), cached + 1)

        try client.input("hec")
        try client.barrier()
        scheduler.advance(by: .milliseconds(500))  // the window's timer lets "hec" through
        XCTAssertEqual(try client.result(for: "hec").status, "found")
        try client.barrier()
        XCTAssertEqual(try count("pipeline_cached_result_seconds"), cached + 1, "an upstream answer is not timed")
        XCTAssertGreaterThan(try count("pipeline_timer_lateness_seconds"), timers)
    }

    /// While `hec` is upstream, the throttle lets `hec` through again and removeDuplicates drops
    /// it: the upstream answer that follows is still not timed as a cached one.
    func testAnUpstreamAnswerIsNotTimedWhenADuplicateIsDroppedMeanwhile() throws {
        fake.setFault(.delay(.milliseconds(300)), for: "hec")
        try startVirtualService()
        let client = try connect()
        let cached = try count("pipeline_cached_result_seconds")

        try client.input("hec")
        try client.barrier()
        scheduler.advance()  // the first value of a quiet window leaves at once
        XCTAssertTrue(waitUntil { self.fake.requestCount(for: "hec") == 1 }, "the lookup went upstream")
        try client.input("hec")
        try client.barrier()
        scheduler.advance(by: .milliseconds(500))  // the same value again: dropped as a duplicate
        XCTAssertEqual(try client.result(for: "hec").status, "found")
        try client.barrier()
        XCTAssertEqual(try count("pipeline_cached_result_seconds"), cached)
    }
}

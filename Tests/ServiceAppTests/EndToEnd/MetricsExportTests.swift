import Foundation
import XCTest

/// `/metrics` exports the fair-use counters from the start, before anything is refused, as
/// Prometheus expects of a counter (issue #31: they appeared only after the first refusal).
/// The registry is process-wide; run alone (`--filter MetricsExportTests`) this sees a process
/// in which nothing was ever refused, and the values are 0.
final class MetricsExportTests: EndToEndTestCase {
    func testFairUseCountersAreExportedBeforeTheFirstRefusal() throws {
        try startService()
        let text = try get("/metrics").text
        for series in [#"fair_use_refused_sessions_total{reason="origin"}"#,
                       #"fair_use_refused_sessions_total{reason="too_many_sessions"}"#,
                       #"fair_use_throttled_lookups_total{scope="client"}"#] {
            let line = text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            XCTAssertNotNil(line.flatMap { Double($0.split(separator: " ").last ?? "") }, "\(series) missing:\n\(text)")
        }
        XCTAssertTrue(text.contains("# TYPE fair_use_refused_sessions_total counter"), text)
        XCTAssertTrue(text.contains("# TYPE fair_use_throttled_lookups_total counter"), text)
    }
}

import Foundation
import HTTPTestSupport
import PipelineWire
import XCTest

@testable import ServiceApp

/// `GET /api/operators` answers the composer's catalog with the running configuration's limits.
final class OperatorCatalogTests: EndToEndTestCase {
    func testTheCatalogHasTheConfiguredLimits() throws {
        let limits = ComposerLimits(maxStages: 4, maxMs: 2_000, maxCount: 10, maxStringLength: 32, maxLookups: 1, maxPublishers: 3)
        try startService { $0.mux.composer = limits }
        let response = try get("/api/operators")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertEqual(response.text, OperatorDescription.catalogJSON(limits: limits))
        let catalog = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        XCTAssertEqual(catalog["limits"] as? [String: Int], [
            "maxStages": 4, "maxMs": 2_000, "maxCount": 10, "maxStringLength": 32, "maxLookups": 1, "maxPublishers": 3,
        ])
        let operators = try XCTUnwrap(catalog["operators"] as? [[String: Any]])
        XCTAssertEqual(operators.compactMap { $0["op"] as? String }, ComposedStage.ops)
        let delay = try XCTUnwrap(operators.first { $0["op"] as? String == "delay" }?["parameters"] as? [[String: Any]])
        XCTAssertEqual(delay.first?["maximum"] as? Int, 2_000)
        let presets = try XCTUnwrap(catalog["presets"] as? [[String: Any]])
        XCTAssertEqual(presets.compactMap { $0["name"] as? String }, ["github-user", "search", "throttle", "debounce", "switch-to-latest", "concat"],
                       "the presets that fit: not flat-map, whose 4 publishers are more than 3")
    }
}

import Foundation
import StreamCore
import XCTest

final class DemandTests: XCTestCase {
    typealias Demand = Subscribers.Demand

    func testArithmeticSaturates() {
        XCTAssertEqual(Demand.max(2) + .max(3), .max(5))
        XCTAssertEqual(Demand.max(2) + .unlimited, .unlimited)
        XCTAssertEqual(Demand.max(Int.max) + .max(1), .unlimited)
        XCTAssertEqual(Demand.max(2) - .max(3), .none)
        XCTAssertEqual(Demand.unlimited - .max(3), .unlimited)
        XCTAssertEqual(Demand.max(3) - .unlimited, .none)
        XCTAssertEqual(Demand.max(3) * 4, .max(12))
        XCTAssertEqual(Demand.max(3) - 1, .max(2))
        XCTAssertEqual(Demand.max(0) - 1, .none)
    }

    func testComparisons() {
        XCTAssertTrue(Demand.unlimited > 1_000_000)
        XCTAssertTrue(Demand.max(1) > 0)
        XCTAssertFalse(Demand.none > 0)
        XCTAssertTrue(Demand.max(3) < .unlimited)
        XCTAssertTrue(Demand.none == 0)
        XCTAssertEqual(Demand.max(7).max, 7)
        XCTAssertNil(Demand.unlimited.max)
        XCTAssertEqual(Demand.unlimited.description, "unlimited")
        XCTAssertEqual(Demand.max(4).description, "max(4)")
    }

    func testCodableRoundTrip() throws {
        let data = try JSONEncoder().encode([Demand.max(3), .unlimited])
        XCTAssertEqual(try JSONDecoder().decode([Demand].self, from: data), [.max(3), .unlimited])
    }
}


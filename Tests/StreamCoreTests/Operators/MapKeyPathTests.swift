import StreamCore
import XCTest

final class MapKeyPathTests: XCTestCase {
    struct Point { let x: Int; let y: Int; let label: String }
    let points = [Point(x: 1, y: 2, label: "a"), Point(x: 3, y: 4, label: "b")]

    func testOneKeyPath() {
        let recorder = Recorder<Int, Never>()
        let publisher: Publishers.MapKeyPath<Publishers.Sequence<[Point], Never>, Int> = points.publisher.map(\.x)
        publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(3), .completion(.finished)])
    }

    func testTwoAndThreeKeyPaths() {
        var pairs: [String] = []
        var triples: [String] = []
        let first = points.publisher.map(\.x, \.label).sink { pairs.append("\($0.0)\($0.1)") }
        let second = points.publisher.map(\.x, \.y, \.label).sink { triples.append("\($0.0)\($0.1)\($0.2)") }
        XCTAssertEqual(pairs, ["1a", "3b"])
        XCTAssertEqual(triples, ["12a", "34b"])
        _ = (first, second)
    }

    func testHonoursDemand() {
        let recorder = Recorder<String, Never>(initialDemand: .max(1))
        points.publisher.map(\.label).subscribe(recorder)
        XCTAssertEqual(recorder.values, ["a"])
    }
}

@testable import GithubProxy
import XCTest

final class LRUStoreTests: XCTestCase {
    func testEvictsInLeastRecentlyUsedOrder() {
        var store = LRUStore<String, Int>(capacity: 3)
        for (index, key) in ["a", "b", "c"].enumerated() { store.put(key, index, bytes: 1) }
        XCTAssertEqual(store.get("a"), 0)  // order now b, c, a
        XCTAssertEqual(store.put("d", 3, bytes: 1), 1)
        XCTAssertNil(store.peek("b"))
        XCTAssertEqual(store.put("e", 4, bytes: 1), 1)
        XCTAssertNil(store.peek("c"))
        XCTAssertEqual([store.peek("a"), store.peek("d"), store.peek("e")], [0, 3, 4])
    }

    func testReplacingKeepsOneEntryAndUpdatesBytes() {
        var store = LRUStore<String, Int>(capacity: 2, maxBytes: 100)
        store.put("a", 1, bytes: 10)
        store.put("a", 2, bytes: 30)
        XCTAssertEqual(store.count, 1)
        XCTAssertEqual(store.bytes, 30)
        XCTAssertEqual(store.get("a"), 2)
    }

    func testByteBoundEvictsUntilItFits() {
        var store = LRUStore<String, Int>(capacity: 100, maxBytes: 100)
        store.put("a", 1, bytes: 40)
        store.put("b", 2, bytes: 40)
        XCTAssertEqual(store.put("c", 3, bytes: 70), 2)
        XCTAssertEqual(store.count, 1)
        XCTAssertEqual(store.bytes, 70)
    }

    func testAValueLargerThanTheBoundIsNotStoredAndReplacesItsKey() {
        var store = LRUStore<String, Int>(capacity: 10, maxBytes: 50)
        store.put("a", 1, bytes: 10)
        store.put("b", 2, bytes: 10)
        XCTAssertEqual(store.put("a", 3, bytes: 51), 0)
        XCTAssertNil(store.peek("a"), "the old value must not be served for the new answer")
        XCTAssertEqual(store.peek("b"), 2)
        XCTAssertEqual(store.bytes, 10)
    }

    func testRemovedSlotsAreReusedAndTheListStaysConsistent() {
        var store = LRUStore<Int, Int>(capacity: 50)
        for round in 0..<20 {
            for key in 0..<100 { store.put(key, key + round, bytes: 1) }
            for key in stride(from: 50, to: 100, by: 3) { store.remove(key) }
        }
        XCTAssertLessThanOrEqual(store.count, 50)
        XCTAssertEqual(store.bytes, store.count)
        // Everything kept is reachable, and evicting it all leaves an empty store.
        var evicting = store
        for key in 1_000..<1_050 { evicting.put(key, 0, bytes: 1) }
        XCTAssertEqual(evicting.count, 50)
        XCTAssertEqual((0..<100).compactMap { evicting.peek($0) }.count, 0)
    }
}

import Foundation
import HTTPTestSupport
import SharedState
import XCTest

/// Fair use's per-client allowance as one bucket in Redis for every replica.
final class SharedTokenBucketsTests: RedisTestCase {
    /// Spends `count` tokens of `key` at once over `buckets`; returns the answers.
    private func spend(_ count: Int, of key: String, from buckets: [RedisTokenBuckets], capacity: Int = 3, perSecond: Double = 3.0 / 60) -> [Int?] {
        atOnce(count) { index, answer in
            buckets[index % buckets.count].spend(key, capacity: capacity, refillPerSecond: perSecond, completion: answer)
        }
    }

    func testReplicasSpendingAtOnceNeverTakeMoreThanTheBucketHolds() {
        let a = RedisTokenBuckets(client: redisClient()), b = RedisTokenBuckets(client: redisClient())
        let answers = spend(30, of: "10.0.0.1", from: [a, b])
        XCTAssertEqual(answers.filter { $0 == nil }.count, 3, "a full bucket of 3, over both replicas")
        XCTAssertTrue(answers.compactMap { $0 }.allSatisfy { (1...20).contains($0) }, "one token per 20 s: \(answers)")
        XCTAssertEqual(spend(1, of: "10.0.0.2", from: [b]), [nil], "each client its own bucket")
    }

    func testTheBucketRefills() {
        let buckets = RedisTokenBuckets(client: redisClient())
        XCTAssertEqual(spend(2, of: "10.0.0.1", from: [buckets], capacity: 2, perSecond: 20).filter { $0 == nil }.count, 2)
        XCTAssertTrue(waitUntil { self.spend(1, of: "10.0.0.1", from: [buckets], capacity: 2, perSecond: 20) == [nil] }, "a token every 50 ms")
    }

    func testWithRedisDownEachReplicasOwnBucketDecides() {
        let buckets = RedisTokenBuckets(client: redisClient(timeout: .milliseconds(100)))
        redis.stop()
        XCTAssertEqual(spend(5, of: "10.0.0.1", from: [buckets]), [nil, nil, nil, nil, nil])
    }
}

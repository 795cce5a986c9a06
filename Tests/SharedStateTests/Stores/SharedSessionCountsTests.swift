import Foundation
import HTTPTestSupport
import SharedState
import XCTest

/// Fair use's sessions per client as one count in Redis for every replica.
final class SharedSessionCountsTests: RedisTestCase {
    private var stores: [RedisSessionCounts] = []

    override func tearDown() {
        stores.forEach { $0.stop() }
        stores = []
        super.tearDown()
    }

    private func store(timeout: Duration = .milliseconds(300)) -> RedisSessionCounts {
        let store = RedisSessionCounts(client: redisClient(timeout: timeout))
        stores.append(store)
        return store
    }

    /// Opens `count` sessions of `client` at once over `stores`; returns the answers.
    private func open(_ count: Int, of client: String, on stores: [RedisSessionCounts], limit: Int = 3) -> [Bool?] {
        atOnce(count) { index, answer in
            stores[index % stores.count].open(client, session: "s\(index)-\(UUID().uuidString)", limit: limit, completion: answer)
        }
    }

    func testReplicasOpeningAtOnceNeverPassTheLimitTogether() {
        let a = store(), b = store()
        XCTAssertTrue(waitUntil { self.liveReplicas() == 2 }, "both replicas announced themselves")
        let answers = open(20, of: "10.0.0.1", on: [a, b])
        XCTAssertEqual(answers.filter { $0 == true }.count, 3)
        XCTAssertEqual(answers.filter { $0 == false }.count, 17)
        XCTAssertEqual(open(1, of: "10.0.0.2", on: [b]), [true], "each client its own count")
    }

    /// Opens the named session and waits for the answer.
    private func open(_ session: String, of client: String, on store: RedisSessionCounts, limit: Int = 3) -> Bool? {
        let answer = Box<Bool??>(nil)
        let done = DispatchSemaphore(value: 0)
        store.open(client, session: session, limit: limit) { counted in
            answer.mutate { $0 = .some(counted) }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        return answer.value ?? nil
    }

    func testASessionClosedOnOneReplicaMakesRoomOnTheOtherOnceOnly() {
        let a = store(), b = store()
        XCTAssertTrue(waitUntil { self.liveReplicas() == 2 })
        for session in ["s1", "s2", "s3"] { XCTAssertEqual(open(session, of: "10.0.0.1", on: a), true) }
        XCTAssertEqual(open("s4", of: "10.0.0.1", on: b), false)
        a.close("10.0.0.1", session: "s1")
        a.close("10.0.0.1", session: "s1")
        a.close("10.0.0.1", session: "never-opened")
        XCTAssertTrue(waitUntil { self.open("s4", of: "10.0.0.1", on: b) == true }, "A's close reached Redis")
        XCTAssertEqual(open("s5", of: "10.0.0.1", on: b), false, "a repeated or unknown close made no more room")
    }

    func testTheSessionsOfAReplicaThatIsGoneStopCounting() {
        let a = store(), b = store()
        XCTAssertTrue(waitUntil { self.liveReplicas() == 2 })
        XCTAssertEqual(open(3, of: "10.0.0.1", on: [a]), [true, true, true])
        XCTAssertEqual(open(1, of: "10.0.0.1", on: [b]), [false])
        a.stop()  // as a replica's key lapses 30 s after it was killed
        XCTAssertTrue(waitUntil { self.liveReplicas() == 1 })
        XCTAssertEqual(open(1, of: "10.0.0.1", on: [b]), [true])
    }

    func testWithRedisDownNothingIsCountedAndEachReplicaDecides() {
        let a = store(timeout: .milliseconds(100))
        redis.stop()
        XCTAssertEqual(open(4, of: "10.0.0.1", on: [a]), [nil, nil, nil, nil])
    }

    private func liveReplicas() -> Int {
        guard case .success(.array(let keys)) = redisClient().runAndWait(["KEYS", "serviceapp:replica:*"]) else { return -1 }
        return keys.count
    }
}

import FakeGithub
import Foundation
import HTTPTestSupport
import GithubProxy
import SharedState
import XCTest

/// GitHub's rate limits shared by replicas through Redis: what one replica spends, the others
/// cannot spend again, and a pause one replica meets holds for all.
final class SharedRateLimitTests: RedisReplicaTestCase {
    /// Takes from `store` `count` times at once; returns the answers.
    private func take(_ count: Int, from stores: [RedisRateLimitStore]) -> [Int?] {
        atOnce(count) { index, answer in stores[index % stores.count].take("core", completion: answer) }
    }

    func testTheLastRequestsAreNeverSpentTwice() {
        let a = RedisRateLimitStore(client: redisClient()), b = RedisRateLimitStore(client: redisClient())
        a.record("core", RateLimitReading(remaining: 5, reset: Date().addingTimeInterval(3_600)))
        XCTAssertTrue(waitUntil { self.field("remaining") == "5" })
        let answers = take(40, from: [a, b])
        XCTAssertEqual(answers.filter { $0 == nil }.count, 5, "exactly the 5 remaining requests go, over both replicas")
        XCTAssertTrue(answers.compactMap { $0 }.allSatisfy { (3_590...3_600).contains($0) }, "the rest wait for the reset: \(answers)")
    }

    func testWithinOneWindowGitHubsLatestCountWinsAndANewWindowReplacesIt() {
        let store = RedisRateLimitStore(client: redisClient())
        let reset = Date().addingTimeInterval(600)
        store.record("core", RateLimitReading(remaining: 3, reset: reset))
        XCTAssertTrue(waitUntil { self.field("remaining") == "3" })
        XCTAssertEqual(take(3, from: [store]), [nil, nil, nil])
        XCTAssertEqual(take(1, from: [store]).first??.signum(), 1, "taken down to 0: wait for the reset")
        // GitHub did not charge those three (304s): its count sets the shared one right.
        store.record("core", RateLimitReading(remaining: 3, reset: reset))
        XCTAssertTrue(waitUntil { self.field("remaining") == "3" }, "the latest reading wins")
        store.record("core", RateLimitReading(remaining: 50, reset: reset.addingTimeInterval(3_600)))
        XCTAssertTrue(waitUntil { self.field("remaining") == "50" }, "a newer window starts over")
        store.record("core", RateLimitReading(remaining: 0, reset: reset))
        XCTAssertEqual(take(1, from: [store]), [nil], "an older window's reading changes nothing")
    }

    func testAPauseHoldsForEveryReplica() {
        let a = RedisRateLimitStore(client: redisClient()), b = RedisRateLimitStore(client: redisClient())
        a.record("search", RateLimitReading(pauseSeconds: 120))
        XCTAssertTrue(waitUntil { self.field("paused", of: "search") != nil })
        let answer = Box<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        b.take("search") { wait in
            answer.mutate { $0 = wait }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertTrue((118...120).contains(answer.value ?? 0), "B waits out A's pause: \(String(describing: answer.value))")
        XCTAssertEqual(take(1, from: [b]), [nil], "core is another resource")
    }

    func testQuotaSpentThroughOneReplicaStopsTheOtherWithoutARequest() {
        let a = replica(), b = replica()
        fake.rateLimitRemaining = 0
        XCTAssertEqual(lookup("heckj", with: a)?.status, .found, "the last request of the hour")
        XCTAssertTrue(waitUntil { self.field("remaining") == "0" })
        let fromB = lookup("orta", with: b)
        XCTAssertEqual(fromB?.status, .rateLimited)
        XCTAssertEqual(fake.requestCount(for: "orta"), 0, "B sent nothing")
        XCTAssertNotNil(b.budget.secondsUntilReset(), "and pauses its own budget until the reset")
    }

    func testASecondaryLimitMetByOneReplicaPausesTheOther() {
        let a = replica(), b = replica()
        fake.setFault(.secondaryRateLimited(status: 403, retryAfterSeconds: 90), for: "orta")
        XCTAssertEqual(lookup("orta", with: a)?.status, .rateLimited)
        XCTAssertTrue(waitUntil { self.field("paused") != nil }, "A shared the pause of core")
        XCTAssertEqual(lookup("heckj", with: b)?.status, .rateLimited)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 0)
    }

    func testWithRedisDownTheRequestGoes() {
        let store = RedisRateLimitStore(client: redisClient(timeout: .milliseconds(100)))
        redis.stop()
        XCTAssertEqual(take(3, from: [store]), [nil, nil, nil], "each replica goes by its own budget")
    }

    /// A field of `resource`'s shared state, as Redis holds it.
    private func field(_ name: String, of resource: String = "core") -> String? {
        guard case .success(let reply) = redisClient().runAndWait(["HGET", "serviceapp:ratelimit:" + resource, name]) else { return nil }
        return reply.text
    }
}

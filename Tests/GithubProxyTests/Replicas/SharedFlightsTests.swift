import FakeGithub
import Foundation
import HTTPTestSupport
import GithubProxy
import SharedState
import StreamCore
import XCTest

/// In-flight lookups shared by replicas through Redis: sessions on different replicas asking for
/// the same login at once cause one upstream request; a lead that fails, is cancelled or never
/// lands holds no one up for long.
final class SharedFlightsTests: RedisReplicaTestCase {
    /// An allowance that counts what it is charged and allows everything.
    private final class CountingQuota: UpstreamQuota, @unchecked Sendable {
        // Sendable: `count` is guarded by `lock`.
        private let lock = NSLock()
        private var count = 0
        var charged: Int { lock.withLock { count } }
        func spend() -> Int? { lock.withLock { count += 1 }; return nil }
    }

    /// Starts `retrieveGithubUser` on each client at once; returns the results in client order.
    private func lookupAtOnce(
        _ username: String, with clients: [GithubClient], quotas: [(any UpstreamQuota)?]? = nil
    ) -> [LookupResult?] {
        let results = Box<[Int: LookupResult]>([:])
        let done = expectation(description: "lookups")
        done.expectedFulfillmentCount = clients.count
        let cancellables = clients.enumerated().map { index, client in
            client.retrieveGithubUser(username: username, quota: quotas?[index] ?? nil).sink { result in
                results.mutate { $0[index] = result }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 15)
        cancellables.forEach { $0.cancel() }
        return clients.indices.map { results.value[$0] }
    }

    // The fake holds each answer 1.5 s: every replica has claimed or joined long before (the
    // margin is for a loaded 2-core machine; the claims take milliseconds).
    func testOneLoginAskedOnThreeReplicasAtOnceIsOneRequest() {
        let replicas = [replica(), replica(), replica()]
        fake.setFault(.delay(.milliseconds(1_500)), for: "heckj")
        let results = lookupAtOnce("heckj", with: replicas)
        XCTAssertEqual(results.map { $0?.status }, [.found, .found, .found])
        XCTAssertEqual(results.map { $0?.users.first?.publicRepos }, [69, 69, 69])
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1, "one replica fetched, the others took its answer from Redis")
        XCTAssertEqual(replicas.map(\.cache.count), [1, 1, 1], "each keeps it")
    }

    func testOnlyTheReplicaThatFetchesChargesItsClient() {
        let replicas = [replica(), replica()]
        let quotas = [CountingQuota(), CountingQuota()]
        fake.setFault(.delay(.milliseconds(1_500)), for: "heckj")
        XCTAssertEqual(lookupAtOnce("heckj", with: replicas, quotas: quotas).map { $0?.status }, [.found, .found])
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1)
        XCTAssertEqual(quotas.map(\.charged).sorted(), [0, 1], "joining another replica's request is free, as joining one here is")
    }

    func testANotFoundLandsForEveryoneToo() {
        let replicas = [replica(), replica()]
        fake.setFault(.delay(.milliseconds(1_500)), for: "nobody-here")
        XCTAssertEqual(lookupAtOnce("nobody-here", with: replicas).map { $0?.status }, [.notFound, .notFound])
        XCTAssertEqual(fake.requestCount(for: "nobody-here"), 1)
    }

    func testWhenTheLeadIsCancelledTheOthersFetchAtOnce() {
        let a = replica(), b = replica()
        fake.setFault(.delay(.milliseconds(1_500)), for: "heckj")
        let leading = a.retrieveGithubUser(username: "heckj").sink { _ in XCTFail("A was cancelled") }
        XCTAssertTrue(waitUntil { self.fake.requestCount(for: "heckj") == 1 }, "A leads")
        let result = Box<LookupResult?>(nil)
        let done = expectation(description: "B")
        let following = b.retrieveGithubUser(username: "heckj").sink { value in
            result.mutate { $0 = value }
            done.fulfill()
        }
        XCTAssertTrue(waitUntil { (b.replicas.flights as? RedisFlights)?.followers == 1 }, "B waits for A's request")
        leading.cancel()
        // flightWait is 30 s: an answer within the expectation's 10 s means B did not wait it out.
        wait(for: [done], timeout: 10)
        following.cancel()
        XCTAssertEqual(result.value?.status, .found)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 2, "A's request was cancelled, so B made its own")
    }

    func testAfterALeadLeavesTheFollowersElectANewOneInsteadOfAllFetching() {
        let a = replica(), b = replica(), c = replica()
        fake.setFault(.delay(.milliseconds(1_500)), for: "heckj")
        let leading = a.retrieveGithubUser(username: "heckj").sink { _ in XCTFail("A was cancelled") }
        XCTAssertTrue(waitUntil { self.fake.requestCount(for: "heckj") == 1 }, "A leads")
        let results = Box<[LookupResult]>([])
        let done = expectation(description: "B and C")
        done.expectedFulfillmentCount = 2
        let following = [b, c].map { replica in
            replica.retrieveGithubUser(username: "heckj").sink { value in
                results.mutate { $0.append(value) }
                done.fulfill()
            }
        }
        XCTAssertTrue(waitUntil { [b, c].allSatisfy { ($0.replicas.flights as? RedisFlights)?.followers == 1 } }, "B and C wait for A")
        leading.cancel()
        wait(for: [done], timeout: 15)
        following.forEach { $0.cancel() }
        XCTAssertEqual(results.value.map(\.status), [.found, .found])
        XCTAssertEqual(fake.requestCount(for: "heckj"), 2, "A's cancelled request, then one for B and C")
    }

    func testALeadThatNeverLandsHoldsTheOthersUpOnlyForTheWait() throws {
        // A replica that claimed the login and crashed: its claim stays until it expires.
        XCTAssertEqual(try redisClient().runAndWait(["SET", "serviceapp:flight:lock:heckj", "crashed", "PX", "60000"]).get(), .status("OK"))
        let b = replica(flightWait: .milliseconds(300))
        let started = Date()
        XCTAssertEqual(lookup("heckj", with: b)?.status, .found)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3, "B waited for the landing first")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1)
    }

    func testWithRedisDownEveryReplicaFetchesForItself() {
        let replicas = [replica(), replica()]
        redis.stop()
        XCTAssertEqual(lookupAtOnce("heckj", with: replicas).map { $0?.status }, [.found, .found])
        XCTAssertEqual(fake.requestCount(for: "heckj"), 2, "no shared flight, no failed lookup")
    }

    func testRedisBackMeansSharedAgain() throws {
        let replicas = [replica(), replica()]
        redis.stop()
        XCTAssertEqual(lookupAtOnce("heckj", with: replicas).map { $0?.status }, [.found, .found])
        try redis.start()
        XCTAssertTrue(waitUntil(timeout: 10) { replicas.allSatisfy { ($0.replicas.flights as? RedisFlights)?.isSubscribed == true } }, "the replicas listen again")
        fake.answersAnyLogin = true
        fake.setFault(.delay(.milliseconds(1_500)), for: "someone-else")
        XCTAssertEqual(lookupAtOnce("someone-else", with: replicas).map { $0?.status }, [.found, .found])
        XCTAssertEqual(fake.requestCount(for: "someone-else"), 1, "one request again")
    }
}

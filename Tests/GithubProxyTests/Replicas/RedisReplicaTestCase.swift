import FakeGithub
import Foundation
import GithubProxy
import HTTPTestSupport
import SharedState
import XCTest

/// Replicas as `GithubClient`s with caches of their own, sharing one `redis-server` of the test's
/// own (cache, rate limits and flights), against the fake GitHub.
class RedisReplicaTestCase: FakeGithubTestCase {
    var redis: RedisServerProcess!
    let failures = Box<[RedisError]>([])
    private var flights: [RedisFlights] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        redis = try RedisServerProcess()
    }

    override func tearDown() {
        flights.forEach { $0.stop() }
        flights = []
        redis = nil
        super.tearDown()
    }

    /// A Redis client of the test's server.
    func redisClient(timeout: Duration = .milliseconds(300)) -> RedisClient {
        let failures = self.failures
        return RedisClient(
            configuration: .init(port: Int(redis.port), poolSize: 2, timeout: timeout),
            onFailure: { error in failures.mutate { $0.append(error) } }
        )
    }

    /// One replica: its own caches, budgets and gate; Redis for what replicas share.
    func replica(flightWait: Duration = .seconds(30), retry: RetryPolicy = RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(10), jitter: 0)) -> GithubClient {
        let client = redisClient()
        let flights = RedisFlights(client: client)
        self.flights.append(flights)
        XCTAssertTrue(waitUntil { flights.isSubscribed }, "the replica listens for landings")
        return GithubClient(
            configuration: .init(baseURL: baseURL, retry: retry, flightWait: flightWait), http: http,
            replicas: .init(cache: RedisResponseStore(client: client), rateLimits: RedisRateLimitStore(client: client), flights: flights),
            random: { 0.5 }
        )
    }

    /// Saves are asynchronous (best effort): wait until Redis holds `count` cache keys.
    func waitForSharedKeys(_ count: Int) {
        let client = redisClient()
        XCTAssertTrue(waitUntil {
            guard case .success(.array(let keys)) = client.runAndWait(["KEYS", "serviceapp:cache:*"]) else { return false }
            return keys.count >= count
        }, "shared keys")
    }
}

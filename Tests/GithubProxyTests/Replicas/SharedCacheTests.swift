import FakeGithub
import Foundation
import GithubProxy
import HTTPTestSupport
import XCTest

/// Two replicas (two `GithubClient`s with caches of their own) sharing one Redis: what one
/// fetched, the other serves without asking GitHub; with Redis gone, each carries on alone.
final class SharedCacheTests: RedisReplicaTestCase {
    func testAUserFetchedByOneReplicaIsServedByTheOtherWithoutARequest() throws {
        let a = replica(), b = replica()
        XCTAssertEqual(lookup("heckj", with: a)?.status, .found)
        waitForSharedKeys(1)
        let fromB = try XCTUnwrap(lookup("HeckJ", with: b))
        XCTAssertEqual(fromB.status, .found)
        XCTAssertEqual(fromB.users.first?.publicRepos, 69)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1, "B served A's copy")
        XCTAssertEqual(b.cache.count, 1, "and keeps it in its own cache")
    }

    func testANotFoundIsSharedToo() {
        let a = replica(), b = replica()
        XCTAssertEqual(lookup("nobody-here", with: a)?.status, .notFound)
        waitForSharedKeys(1)
        XCTAssertEqual(lookup("nobody-here", with: b)?.status, .notFound)
        XCTAssertEqual(fake.requestCount(for: "nobody-here"), 1)
    }

    func testAStaleSharedCopyGivesTheOtherReplicaItsETag() {
        fake.cacheControl = "private, max-age=0"
        let a = replica(), b = replica()
        _ = lookup("heckj", with: a)
        waitForSharedKeys(1)
        XCTAssertEqual(lookup("heckj", with: b)?.status, .found)
        XCTAssertEqual(fake.requests.map { $0.header("If-None-Match") }, [nil, #"W/"u43388v1""#], "B's first request is conditional")
    }

    func testWithRedisDownEachReplicaCarriesOnAlone() {
        let a = replica(), b = replica()
        redis.stop()
        XCTAssertEqual(lookup("heckj", with: a)?.status, .found)
        XCTAssertEqual(lookup("heckj", with: b)?.status, .found)
        XCTAssertEqual(lookup("heckj", with: b)?.status, .found, "B's own cache")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 2, "one request per replica, none failed")
        XCTAssertTrue(failures.value.contains { if case .connection = $0 { true } else { false } }, "\(failures.value)")
    }
}

import FakeGithub
import Foundation
import HTTPTestSupport
import GithubProxy
import StreamCore
import XCTest

/// The ETag cache (conditional requests, 304) and the `Authorization` header. The fake sends
/// `max-age=0` here, so every lookup after the first revalidates (freshness: UpstreamMannersTests).
final class CacheAndTokenTests: FakeGithubTestCase {
    func testStaleCopyIsRevalidatedConditionallyAndServedOn304() throws {
        fake.cacheControl = "private, max-age=0"
        let hits = Box(0)
        let client = makeClient(events: GithubClientEvents(onCacheHit: { hits.mutate { $0 += 1 } }))
        let first = try XCTUnwrap(lookup("heckj", with: client))
        XCTAssertEqual(client.cache.count, 1)
        let second = try XCTUnwrap(lookup("HECKJ", with: client))
        XCTAssertEqual(second.status, .found)
        XCTAssertEqual(second.users, first.users)
        let log = fake.requests
        XCTAssertEqual(log.count, 2)
        XCTAssertNil(log[0].header("If-None-Match"))
        XCTAssertEqual(log[1].header("If-None-Match"), #"W/"u43388v1""#)
        XCTAssertEqual(hits.value, 1)
    }

    func testChangedUserReplacesTheCachedCopy() throws {
        fake.cacheControl = "private, max-age=0"
        let client = makeClient()
        XCTAssertEqual(lookup("heckj", with: client)?.users.first?.publicRepos, 69)
        fake.update(FakeGithubUser(login: "heckj", id: 43388, name: "Joe Heck", publicRepos: 70))
        XCTAssertEqual(lookup("heckj", with: client)?.users.first?.publicRepos, 70)
        XCTAssertEqual(lookup("heckj", with: client)?.users.first?.publicRepos, 70)
        XCTAssertEqual(fake.requests.map { $0.header("If-None-Match") }, [nil, #"W/"u43388v1""#, #"W/"u43388v2""#])
    }

    func testTokenIsSentAsBearerWhenConfigured() {
        _ = lookup("heckj", with: makeClient(token: "ghp_secret123"))
        XCTAssertEqual(fake.requests.first?.header("Authorization"), "Bearer ghp_secret123")
    }

    func testNoAuthorizationWithoutAToken() {
        _ = lookup("heckj", with: makeClient())
        _ = lookup("heck", with: makeClient(token: ""))
        XCTAssertEqual(fake.requests.count, 2)
        XCTAssertTrue(fake.requests.allSatisfy { $0.header("Authorization") == nil })
    }

    func testGithubHeadersAreSent() throws {
        _ = lookup("heckj", with: makeClient())
        let request = try XCTUnwrap(fake.requests.first)
        XCTAssertEqual(request.header("Accept"), "application/vnd.github+json")
        XCTAssertEqual(request.header("X-GitHub-Api-Version"), "2022-11-28")
        XCTAssertEqual(request.header("User-Agent"), "combine-server-github-proxy")
        XCTAssertEqual(request.path, "/users/heckj")
    }
}

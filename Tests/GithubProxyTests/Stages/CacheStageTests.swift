import Foundation
@testable import GithubProxy
import HTTPTestSupport
import StreamCore
import XCTest

/// The cache stage and stale-if-error: answers from the cache, without a request.
final class CacheStageTests: FakeGithubTestCase {
    private let maxAge = { (seconds: Int) in CacheDirectives(maxAge: seconds) }

    func testAFreshEntryIsServedAndARememberedNotFoundFails() {
        let served = Box<[CachedAnswer<GithubUser>.Source]>([])
        let client = makeClient(events: GithubClientEvents(onServedFromCache: { source in served.mutate { $0.append(source) } }))
        XCTAssertNil(client.freshAnswer(for: "heckj"), "an empty cache has nothing to serve")
        _ = client.cache.store(.sample("heckj"), etag: "\"e\"", directives: maxAge(60), for: "heckj")
        let fresh = outcome(of: client.freshAnswer(for: "heckj")!)
        XCTAssertEqual(fresh.values.map(\.value.login), ["heckj"])
        XCTAssertEqual(fresh.values.map(\.source), [.fresh])
        _ = client.cache.storeNotFound(for: "nobody")
        XCTAssertEqual(outcome(of: client.freshAnswer(for: "nobody")!).completion, .failure(.notFound))
        XCTAssertEqual(served.value, [.fresh, .fresh])
    }

    /// `retrieveGithubUser` answers a fresh copy at subscription, once per subscription, counted
    /// once as served fresh, with the result the stages would give (a copy already fresh when the
    /// lookup is made is its answer, looked up then); a remembered 404 with retries
    /// goes through the stages, served once per attempt, still without a request.
    func testALookupOfAFreshCopyIsAnsweredAtOnceAndCountedOnce() {
        let served = Box<[CachedAnswer<GithubUser>.Source]>([])
        let client = makeClient(events: GithubClientEvents(onServedFromCache: { source in served.mutate { $0.append(source) } }))
        let lookup = client.retrieveGithubUser(username: "HeckJ")
        _ = client.cache.store(.sample("heckj"), etag: nil, directives: maxAge(60), for: "heckj")
        XCTAssertEqual(outcome(of: lookup).values, [LookupResult(query: "HeckJ", status: .found, users: [.sample("heckj")])],
                       "the cache is read when the lookup is subscribed to, not when it is made")
        XCTAssertEqual(outcome(of: lookup).values.count, 1)
        XCTAssertEqual(served.value, [.fresh, .fresh])
        let madeWhileFresh = client.retrieveGithubUser(username: "heckj")
        client.cache.remove("heckj")
        XCTAssertEqual(outcome(of: madeWhileFresh).values, [LookupResult(query: "heckj", status: .found, users: [.sample("heckj")])],
                       "a copy fresh when the lookup is made is its answer")
        XCTAssertEqual(served.value, [.fresh, .fresh, .fresh])
        _ = client.cache.storeNotFound(for: "nobody")
        served.mutate { $0 = [] }
        for retries in [0, 2] {
            XCTAssertEqual(outcome(of: client.retrieveGithubUser(username: "nobody", retries: retries)).values,
                           [LookupResult(query: "nobody", failure: .notFound)])
        }
        XCTAssertEqual(served.value, [.fresh] + Array(repeating: .fresh, count: 3), "once, then once per attempt")
        XCTAssertEqual(fake.requestCount, 0)
    }

    func testFromCacheAsksUpstreamOnlyWithoutAFreshCopy() {
        let client = makeClient()
        let upstreamCalls = Box(0)
        let upstream = { () -> AnyPublisher<CachedAnswer<GithubUser>, GithubError> in
            upstreamCalls.mutate { $0 += 1 }
            return Fail(error: .unavailable("down")).eraseToAnyPublisher()
        }
        XCTAssertEqual(outcome(of: client.fromCache("heckj", else: upstream)).completion, .failure(.unavailable("down")))
        _ = client.cache.store(.sample("heckj"), etag: nil, directives: maxAge(60), for: "heckj")
        XCTAssertEqual(outcome(of: client.fromCache("heckj", else: upstream)).values.map(\.source), [.fresh])
        XCTAssertEqual(upstreamCalls.value, 1, "the fresh copy needed no upstream")
    }

    func testStaleIfErrorServesTheStaleCopyOnlyForFailuresThatAllowIt() {
        let client = makeClient()
        _ = client.cache.store(.sample("heckj"), etag: nil, directives: maxAge(0), for: "heckj")
        XCTAssertNil(client.freshAnswer(for: "heckj"), "max-age=0: stale at once")
        let unavailable = client.staleIfError("heckj", Fail(error: .unavailable("down")).eraseToAnyPublisher())
        XCTAssertEqual(outcome(of: unavailable).values.map(\.source), [.stale])
        let notFound = client.staleIfError("heckj", Fail(error: .notFound).eraseToAnyPublisher())
        XCTAssertEqual(outcome(of: notFound).completion, .failure(.notFound), "a 404 is an answer, not a failure to hide")
        let absent = client.staleIfError("other", Fail(error: .timeout).eraseToAnyPublisher())
        XCTAssertEqual(outcome(of: absent).completion, .failure(.timeout))
    }
}

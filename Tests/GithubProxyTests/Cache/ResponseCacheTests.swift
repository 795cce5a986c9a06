import Foundation
import GithubProxy
import HTTPTestSupport
import XCTest

final class ResponseCacheTests: XCTestCase {
    private let user = GithubUser(login: "heckj", id: 43388, name: "Joe Heck", publicRepos: 69, avatarURL: nil, htmlURL: nil)
    private let clock = TestClock()

    private func makeCache(_ configuration: ResponseCacheConfiguration = .init()) -> ResponseCache<GithubUser> {
        ResponseCache(configuration: configuration, size: GithubUser.estimatedBytes, now: clock.now)
    }

    private let maxAge60 = CacheDirectives(maxAge: 60)

    func testStoresAndFindsCaseInsensitively() {
        let cache = makeCache()
        cache.store(user, etag: "\"abc\"", directives: maxAge60, for: "HeckJ")
        XCTAssertEqual(cache.entry(for: "heckj")?.etag, "\"abc\"")
        XCTAssertEqual(cache.fresh(for: "HECKJ")?.value, user)
    }

    func testFreshForMaxAgeThenStaleButKeptForRevalidation() {
        let cache = makeCache()
        cache.store(user, etag: "1", directives: maxAge60, for: "a")
        clock.advance(59)
        XCTAssertNotNil(cache.fresh(for: "a"))
        clock.advance(2)
        XCTAssertNil(cache.fresh(for: "a"), "past max-age")
        XCTAssertEqual(cache.entry(for: "a")?.etag, "1", "kept for a conditional request")
        cache.revalidated(for: "a", directives: maxAge60)
        XCTAssertNotNil(cache.fresh(for: "a"), "a 304 makes it fresh again")
    }

    func testMaxFreshnessCapsMaxAge() {
        let cache = makeCache(.init(maxFreshness: .seconds(10)))
        cache.store(user, etag: "1", directives: maxAge60, for: "a")
        clock.advance(11)
        XCTAssertNil(cache.fresh(for: "a"))
    }

    func testNoStoreKeepsNothingAndDropsTheOldCopy() {
        let cache = makeCache()
        cache.store(user, etag: "1", directives: maxAge60, for: "a")
        cache.store(user, etag: "2", directives: CacheDirectives(noStore: true, maxAge: 60), for: "a")
        XCTAssertNil(cache.entry(for: "a"))
        XCTAssertEqual(cache.count, 0)
    }

    func testNoCacheIsKeptButNeverFresh() {
        let cache = makeCache()
        cache.store(user, etag: "1", directives: CacheDirectives(noCache: true, maxAge: 60), for: "a")
        XCTAssertNil(cache.fresh(for: "a"))
        XCTAssertEqual(cache.entry(for: "a")?.etag, "1")
    }

    func testNotFoundIsRememberedForItsTTL() {
        let cache = makeCache(.init(notFoundTTL: .seconds(30)))
        cache.storeNotFound(for: "ghost")
        let entry = cache.fresh(for: "GHOST")
        XCTAssertNotNil(entry)
        XCTAssertNil(entry?.value)
        clock.advance(31)
        XCTAssertNil(cache.entry(for: "ghost"))
        XCTAssertNil(cache.staleIfError(for: "ghost"), "a 404 is never a stale copy")
    }

    func testStaleIfErrorWindow() {
        let cache = makeCache(.init(staleIfError: .seconds(3_600)))
        cache.store(user, etag: nil, directives: maxAge60, for: "a")
        clock.advance(3_000)
        XCTAssertNil(cache.fresh(for: "a"))
        XCTAssertEqual(cache.staleIfError(for: "a")?.value, user)
        XCTAssertEqual(cache.staleIfError(for: "a").map { cache.ageAndTTL(of: $0) }?.age, 3_000)
        clock.advance(700)
        XCTAssertNil(cache.staleIfError(for: "a"))
        XCTAssertNil(cache.entry(for: "a"), "no ETag and past stale-if-error: useless, dropped")
    }

    func testEvictsLeastRecentlyUsed() {
        let cache = makeCache(.init(capacity: 2))
        cache.store(user, etag: "1", directives: maxAge60, for: "a")
        cache.store(user, etag: "2", directives: maxAge60, for: "b")
        _ = cache.entry(for: "a")  // b is now the least recently used
        cache.store(user, etag: "3", directives: maxAge60, for: "c")
        XCTAssertEqual(cache.count, 2)
        XCTAssertNotNil(cache.entry(for: "a"))
        XCTAssertNil(cache.entry(for: "b"))
        XCTAssertNotNil(cache.entry(for: "c"))
    }

    func testBoundedByBytes() {
        let one = ResponseCache<GithubUser>.entryBytes(key: "a", etag: "1", value: user, size: GithubUser.estimatedBytes)
        let cache = makeCache(.init(capacity: 1_000, maxBytes: one * 3))
        for key in ["a", "b", "c", "d", "e"] { cache.store(user, etag: "1", directives: maxAge60, for: key) }
        XCTAssertEqual(cache.count, 3)
        XCTAssertLessThanOrEqual(cache.bytes, one * 3)
        XCTAssertNil(cache.entry(for: "a"))
        XCTAssertNotNil(cache.entry(for: "e"))
    }

    func testCapacityZeroDisablesTheCache() {
        let cache = makeCache(.init(capacity: 0))
        cache.store(user, etag: "1", directives: maxAge60, for: "a")
        cache.storeNotFound(for: "b")
        XCTAssertNil(cache.entry(for: "a"))
        XCTAssertNil(cache.entry(for: "b"))
    }

    /// A revalidation keeps the size the copy was stored with: the caller's `size` closure is
    /// not asked again (nor under the cache's lock).
    func testRevalidationDoesNotMeasureTheValueAgain() {
        let measured = Box(0)
        let cache = ResponseCache<GithubUser>(configuration: .init(), size: { user in
            measured.mutate { $0 += 1 }
            return GithubUser.estimatedBytes(user)
        }, now: clock.now)
        cache.store(user, etag: "1", directives: maxAge60, for: "a")
        clock.advance(61)
        XCTAssertNotNil(cache.revalidated(for: "a", directives: maxAge60))
        XCTAssertNotNil(cache.fresh(for: "a"), "fresh again")
        XCTAssertEqual(measured.value, 1, "measured once, when stored")
    }
}

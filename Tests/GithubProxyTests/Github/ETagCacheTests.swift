import Foundation
import GithubProxy
import XCTest

final class ETagCacheTests: XCTestCase {
    private let user = GithubUser(login: "heckj", id: 43388, name: "Joe Heck", publicRepos: 69, avatarURL: nil, htmlURL: nil)

    func testStoresAndFindsCaseInsensitively() {
        let cache = ETagCache()
        cache.store(user, etag: "\"abc\"", for: "HeckJ")
        XCTAssertEqual(cache.entry(for: "heckj")?.etag, "\"abc\"")
        XCTAssertEqual(cache.entry(for: "HECKJ")?.user, user)
    }

    func testEvictsLeastRecentlyUsed() {
        let cache = ETagCache(capacity: 2)
        cache.store(user, etag: "1", for: "a")
        cache.store(user, etag: "2", for: "b")
        _ = cache.entry(for: "a")  // b is now the least recently used
        cache.store(user, etag: "3", for: "c")
        XCTAssertEqual(cache.count, 2)
        XCTAssertNotNil(cache.entry(for: "a"))
        XCTAssertNil(cache.entry(for: "b"))
        XCTAssertNotNil(cache.entry(for: "c"))
    }

    func testEntriesExpire() {
        let clock = TestClock()
        let cache = ETagCache(capacity: 10, timeToLive: 60, now: clock.now)
        cache.store(user, etag: "1", for: "a")
        clock.advance(59)
        XCTAssertNotNil(cache.entry(for: "a"))
        clock.advance(2)
        XCTAssertNil(cache.entry(for: "a"))
        XCTAssertEqual(cache.count, 0)
    }
}

/// A settable clock for time-dependent state.
final class TestClock: @unchecked Sendable {
    // Sendable: `current` is guarded by `lock`.
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)

    var now: @Sendable () -> Date { { [self] in lock.withLock { current } } }

    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

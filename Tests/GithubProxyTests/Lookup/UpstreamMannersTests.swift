import FakeGithub
import Foundation
import HTTPTestSupport
import GithubProxy
import StreamCore
import XCTest

/// GitHub's manners, each counted in upstream requests at the fake: freshness, revalidation,
/// remembered 404s, stale-if-error, secondary limits per resource and the concurrency cap.
final class UpstreamMannersTests: FakeGithubTestCase {
    private let clock = TestClock()

    private func cache(_ configuration: ResponseCacheConfiguration = .init(), clock: TestClock? = nil) -> ResponseCache<GithubUser> {
        ResponseCache(configuration: configuration, size: GithubUser.estimatedBytes, now: (clock ?? self.clock).now)
    }

    // MARK: HTTP caching

    func testFreshWithinMaxAgeMakesNoRequestThenOneConditionalRequest() throws {
        // The fake dates its answers by the real clock. Started at the real time, this clock is
        // 61 s ahead of it after the jump, so the revalidated answer would arrive dated 61 s
        // before its arrival: stale at once (RFC 9111 apparent age). Two minutes behind, it
        // never runs ahead. (It failed run alone and passed in the whole suite, presumably
        // because there the test object and its clock were made long before the test ran.)
        let clock = TestClock(start: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 120).rounded(.down)))
        let client = makeClient(cache: cache(clock: clock))
        XCTAssertEqual(lookup("heckj", with: client)?.status, .found)
        for _ in 0..<5 { XCTAssertEqual(lookup("HeckJ", with: client)?.status, .found) }
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1, "fresh for max-age=60: no request")
        clock.advance(61)
        XCTAssertEqual(lookup("heckj", with: client)?.users.first?.login, "heckj")
        XCTAssertEqual(lookup("heckj", with: client)?.status, .found)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 2, "stale: one conditional request, then fresh again")
        XCTAssertEqual(fake.requests.last?.header("If-None-Match"), #"W/"u43388v1""#)
    }

    func testAgeIsSubtractedFromMaxAge() {
        fake.age = 55
        let client = makeClient(cache: cache())
        _ = lookup("heckj", with: client)
        clock.advance(6)
        _ = lookup("heckj", with: client)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 2, "60 − 55 s of freshness were left")
    }

    func testNoCacheRevalidatesEveryTimeAndNoStoreAsksUnconditionally() {
        fake.cacheControl = "private, no-cache"
        let client = makeClient(cache: cache())
        for _ in 0..<3 { _ = lookup("heckj", with: client) }
        XCTAssertEqual(fake.requests.map { $0.header("If-None-Match") }, [nil, #"W/"u43388v1""#, #"W/"u43388v1""#])

        fake.clearLog()
        fake.cacheControl = "no-store"
        let other = makeClient(cache: cache())
        for _ in 0..<3 { XCTAssertEqual(lookup("heck", with: other)?.status, .found) }
        XCTAssertEqual(fake.requests.map { $0.header("If-None-Match") }, [nil, nil, nil])
    }

    func testNotFoundIsAskedOncePerTTL() {
        let client = makeClient(cache: cache(.init(notFoundTTL: .seconds(60))))
        for _ in 0..<4 { XCTAssertEqual(lookup("nobody-here", with: client)?.status, .notFound) }
        XCTAssertEqual(fake.requestCount(for: "nobody-here"), 1)
        clock.advance(61)
        XCTAssertEqual(lookup("nobody-here", with: client)?.status, .notFound)
        XCTAssertEqual(fake.requestCount(for: "nobody-here"), 2)
    }

    // MARK: Stale if error

    func testStaleCopyWhenTheUpstreamFailsAndEmptyWhenNothingIsCached() throws {
        let client = makeClient(retry: RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(1), jitter: 0), cache: cache())
        XCTAssertEqual(lookup("heckj", with: client)?.stale, false)
        clock.advance(3_600)
        fake.setFault(.status(503), for: "heckj")
        let stale = try XCTUnwrap(lookup("heckj", with: client))
        XCTAssertEqual(stale.status, .found)
        XCTAssertTrue(stale.stale)
        XCTAssertEqual(stale.users.first?.login, "heckj")
        XCTAssertEqual(fake.requestCount(for: "heckj"), 4, "the first lookup, then three attempts before the stale copy")

        fake.setFault(.status(503), for: "heck")
        let nothing = try XCTUnwrap(lookup("heck", with: client))
        XCTAssertEqual(nothing.status, .unavailable)
        XCTAssertEqual(nothing.users, [])
        XCTAssertFalse(nothing.stale)
    }

    func testStaleCopyWhenRateLimitedButNotPastStaleIfError() throws {
        let client = makeClient(cache: cache(.init(staleIfError: .seconds(600))))
        _ = lookup("heckj", with: client)
        clock.advance(120)
        fake.script("heckj", .rateLimitExceeded)
        XCTAssertEqual(lookup("heckj", with: client)?.stale, true)
        clock.advance(600)
        XCTAssertEqual(lookup("heckj", with: client)?.status, .rateLimited, "older than staleIfError")
    }

    // MARK: Rate limits per resource, secondary limits

    func testSecondaryLimitPausesTheResourceAndNothingGoesOutUntilItEnds() throws {
        let core = RateLimitBudget(now: clock.now)
        let pauses = Box<[String]>([])
        let events = GithubClientEvents(onPause: { resource, kind, seconds in pauses.mutate { $0.append("\(resource) \(kind) \(seconds)") } })
        let client = makeClient(budget: core, cache: cache(), events: events)
        fake.script("heckj", .secondaryRateLimited(status: 403, retryAfterSeconds: nil))
        XCTAssertEqual(lookup("heckj", with: client)?.status, .rateLimited)
        XCTAssertEqual(pauses.value, ["core secondary 60"])
        XCTAssertEqual(lookup("heck", with: client)?.status, .rateLimited)
        XCTAssertEqual(fake.requestCount(for: "heck"), 0, "paused: no request")
        XCTAssertEqual(searchStatus("heck", with: client), .ok, "search is another resource")
        clock.advance(60)
        XCTAssertEqual(lookup("heck", with: client)?.status, .found)
        fake.script("heckj", .secondaryRateLimited(status: 429, retryAfterSeconds: nil))
        _ = lookup("heckj", with: client)
        XCTAssertEqual(pauses.value.last, "core secondary 60", "a success in between reset the back-off")
    }

    func testNoRetryGoesOutIntoAPause() {
        let scheduler = DispatchQueue.test
        let client = makeClient(
            retry: RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(100), jitter: 0), scheduler: scheduler.eraseToAnyScheduler(),
            budget: RateLimitBudget(now: clock.now), cache: cache()
        )
        fake.script("heckj", .status(503))
        let results = Box<[LookupResult]>([])
        let cancellable = client.retrieveGithubUser(username: "heckj").sink { value in results.mutate { $0.append(value) } }
        defer { cancellable.cancel() }
        XCTAssertTrue(waitUntil { fake.requestCount(for: "heckj") == 1 && scheduler.pendingCount == 1 })
        // While the retry waits, another lookup meets a secondary limit with Retry-After.
        fake.script("heck", .secondaryRateLimited(status: 403, retryAfterSeconds: 30))
        XCTAssertEqual(lookup("heck", with: client)?.status, .rateLimited)
        scheduler.advance(by: .milliseconds(100))
        XCTAssertTrue(waitUntil { results.value.count == 1 })
        XCTAssertEqual(results.value.first?.status, .rateLimited)
        XCTAssertEqual(fake.requestCount(for: "heckj"), 1, "the retry was answered locally")
    }

    func testSpentSearchQuotaPausesSearchOnly() {
        let client = makeClient(searchBudget: RateLimitBudget(now: clock.now), cache: cache())
        fake.scriptSearch(.secondaryRateLimited(status: 403, retryAfterSeconds: 120))
        XCTAssertEqual(searchStatus("heck", with: client), .rateLimited)
        XCTAssertEqual(searchStatus("heck", with: client), .rateLimited)
        XCTAssertEqual(fake.searchQueries.count, 1)
        XCTAssertEqual(lookup("heckj", with: client)?.status, .found)
    }

    // MARK: Concurrency cap

    func testAtMostMaxConcurrentRequestsAndACancelledWaiterNeverReachesGithub() throws {
        fake.answersAnyLogin = true
        fake.defaultFault = .delay(.milliseconds(300))
        let gate = UpstreamGate(limit: 2)
        let client = makeClient(cache: cache(), gate: gate)
        let results = Box<[LookupResult]>([])
        let logins = ["alpha", "bravo", "charlie", "delta", "echo"]
        var cancellables = logins.map { login in
            client.retrieveGithubUser(username: login).sink { value in results.mutate { $0.append(value) } }
        }
        XCTAssertTrue(waitUntil { fake.requestCount == 2 })
        XCTAssertEqual([gate.running, gate.waiting], [2, 3])
        cancellables[3].cancel()  // "delta" is superseded while it waits
        XCTAssertEqual(gate.waiting, 2)
        XCTAssertTrue(waitUntil(timeout: 10) { results.value.count == 4 })
        XCTAssertEqual(fake.requestCount(for: "delta"), 0)
        XCTAssertEqual(Set(results.value.map(\.query)), ["alpha", "bravo", "charlie", "echo"])
        XCTAssertTrue(results.value.allSatisfy { $0.status == .found })
        cancellables.removeAll()
        XCTAssertEqual([gate.running, gate.waiting], [0, 0])
    }

    private func searchStatus(_ text: String, with client: GithubClient) -> SearchResult.Status? {
        let box = Box<[SearchResult]>([])
        let done = expectation(description: "search \(text)")
        let cancellable = client.search(query: text)
            .sink(receiveCompletion: { _ in done.fulfill() }, receiveValue: { value in box.mutate { $0.append(value) } })
        wait(for: [done], timeout: 10)
        cancellable.cancel()
        return box.value.first?.status
    }
}

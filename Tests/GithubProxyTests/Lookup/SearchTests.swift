import FakeGithub
import Foundation
import HTTPTestSupport
import GithubProxy
import StreamCore
import XCTest

/// `GithubClient.search`, end to end against the fake's `/search/users`.
final class SearchTests: FakeGithubTestCase {
    /// Runs `search` to completion and returns its single result.
    private func search(_ text: String, with client: GithubClient, perPage: Int = 10) -> SearchResult? {
        let box = Box<[SearchResult]>([])
        let done = expectation(description: "search \(text)")
        let cancellable = client.search(query: text, perPage: perPage)
            .sink(receiveCompletion: { _ in done.fulfill() }, receiveValue: { value in box.mutate { $0.append(value) } })
        wait(for: [done], timeout: 10)
        cancellable.cancel()
        XCTAssertLessThanOrEqual(box.value.count, 1, "search sends one result")
        return box.value.first
    }

    func testFindsMatchingUsersWithTotalCountAndItems() throws {
        let result = try XCTUnwrap(search("HEC", with: makeClient()))
        XCTAssertEqual(result.status, .ok)
        XCTAssertEqual(result.totalCount, 3)
        XCTAssertEqual(result.items.map(\.login), ["heckj", "heck", "hec"])
        XCTAssertEqual(result.items.first, GithubSearchItem(
            login: "heckj", id: 43388, avatarURL: "\(baseURL.absoluteString)/avatars/u/43388?v=4", htmlURL: "https://github.com/heckj"))
        XCTAssertEqual(fake.searchQueries, ["HEC"])
        XCTAssertEqual(fake.requests.last?.path, "/search/users")
    }

    func testPerPageLimitsItemsNotTotalCount() throws {
        let result = try XCTUnwrap(search("heck", with: makeClient(), perPage: 1))
        XCTAssertEqual(result.totalCount, 2)
        XCTAssertEqual(result.items.count, 1)
    }

    /// Spaces, `+`, `&`, `#`, `%` and non-ASCII reach GitHub as typed.
    func testQueryTextIsEncodedSoEveryCharacterArrivesAsTyped() throws {
        let client = makeClient()
        let texts = ["swift lang", "c++", "a&per_page=100", "x#y", "100%", "é👍🏽", "type:user in:login"]
        for text in texts {
            XCTAssertEqual(search(text, with: client)?.status, .ok, text)
        }
        XCTAssertEqual(fake.searchQueries, texts)
    }

    func testEmptyAndOverlongTextSendNothing() {
        let client = makeClient()
        XCTAssertEqual(search("", with: client), SearchResult(query: "", status: .empty))
        XCTAssertEqual(search("  \t ", with: client), SearchResult(query: "  \t ", status: .empty))
        let long = String(repeating: "a", count: 257)
        XCTAssertEqual(search(long, with: client), SearchResult(query: long, status: .invalid))
        XCTAssertEqual(search(String(repeating: "é", count: 256), with: client)?.status, .ok, "256 characters are allowed")
        XCTAssertEqual(fake.searchQueries.count, 1)
    }

    func testRejectedQueryIsInvalidAndNotRetried() {
        fake.scriptSearch(.status(422))
        let result = search("user:", with: makeClient())
        XCTAssertEqual(result?.status, .invalid)
        XCTAssertEqual(result?.items, [])
        XCTAssertEqual(fake.searchQueries.count, 1)
    }

    func testServerErrorsAreRetriedThenUnavailable() {
        fake.scriptSearch(.status(503), .status(502))
        XCTAssertEqual(search("heck", with: makeClient())?.status, .ok, "two retries")
        fake.scriptSearch(.status(500), .status(500), .status(500))
        XCTAssertEqual(search("heck", with: makeClient())?.status, .unavailable)
        XCTAssertEqual(fake.searchQueries.count, 6)
    }

    /// GitHub sends search pages `no-cache`: every search asks again, and a copy is kept only
    /// for stale-if-error — served, marked stale, when GitHub fails.
    func testStaleSearchPageWhenGithubFails() throws {
        let client = makeClient()
        let fresh = try XCTUnwrap(search("heck", with: client))
        XCTAssertEqual(fresh.status, .ok)
        XCTAssertFalse(fresh.stale)
        fake.scriptSearch(.status(503), .status(503), .status(503))
        let stale = try XCTUnwrap(search("heck", with: client))
        XCTAssertEqual(stale.status, .ok)
        XCTAssertTrue(stale.stale)
        XCTAssertEqual(stale.items.map(\.login), fresh.items.map(\.login))
        XCTAssertEqual(fake.searchQueries.count, 4, "one search, then three attempts: no-cache is never served fresh")
        fake.scriptSearch(.status(503), .status(503), .status(503))
        XCTAssertEqual(search("hec", with: client)?.status, .unavailable, "nothing cached for this text")
    }

    /// The `search` resource is kept apart from `core`: a spent search quota answers
    /// `rate_limited` without asking again, and user lookups go on.
    func testSpentSearchQuotaNeverBlocksUserLookups() {
        let client = makeClient()
        fake.scriptSearch(.rateLimitExceeded)
        XCTAssertEqual(search("heck", with: client)?.status, .rateLimited)
        XCTAssertEqual(search("heck", with: client)?.status, .rateLimited, "answered locally until the reset")
        XCTAssertEqual(fake.searchQueries.count, 1)
        XCTAssertEqual(lookup("heckj", with: client)?.status, .found)
        XCTAssertNotNil(client.searchBudget.secondsUntilReset())
        XCTAssertNil(client.budget.secondsUntilReset())
    }

    func testActivityBeginsAndEndsOncePerSearch() {
        let activity = NetworkActivity()
        let events = Box<[Bool]>([])
        let cancellable = activity.publisher.sink { value in events.mutate { $0.append(value) } }
        let done = expectation(description: "search")
        let search = makeClient().search(query: "heck", activity: activity)
            .sink(receiveCompletion: { _ in done.fulfill() }, receiveValue: { _ in })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(events.value, [true, false])
        search.cancel()
        cancellable.cancel()
    }
}

import Foundation
import GithubProxy
@testable import ServiceApp
import XCTest

final class GithubUserEventTests: XCTestCase {
    private func object(_ event: GithubUserEvent) throws -> [String: Any] {
        XCTAssertFalse(event.json.contains("\n"), "one JSON object on one line")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(event.json.utf8)) as? [String: Any])
    }

    func testHello() throws {
        let hello = try object(.hello(throttleMs: 500, minLength: 3))
        XCTAssertEqual(hello["type"] as? String, "hello")
        XCTAssertEqual(hello["pipeline"] as? String, "github-user")
        XCTAssertEqual(hello["throttleMs"] as? Int, 500)
        XCTAssertEqual(hello["minLength"] as? Int, 3)
    }

    func testActivityAndError() throws {
        XCTAssertEqual(GithubUserEvent.activity(active: true).json, #"{"active":true,"type":"activity"}"#)
        let error = try object(.error(code: "bad_message", message: "nope"))
        XCTAssertEqual(error["code"] as? String, "bad_message")
        XCTAssertEqual(error["message"] as? String, "nope")
    }

    func testResultCarriesTheUserWithGithubFieldNames() throws {
        let user = GithubUser(
            login: "heckj", id: 43388, name: nil, publicRepos: 69,
            avatarURL: "https://avatars.githubusercontent.com/u/43388?v=4", htmlURL: "https://github.com/heckj"
        )
        let result = try object(.result(LookupResult(query: "heckj", status: .found, users: [user])))
        XCTAssertEqual(result["type"] as? String, "result")
        XCTAssertEqual(result["query"] as? String, "heckj")
        XCTAssertEqual(result["status"] as? String, "found")
        let users = try XCTUnwrap(result["users"] as? [[String: Any]])
        XCTAssertEqual(users.first?["login"] as? String, "heckj")
        XCTAssertEqual(users.first?["public_repos"] as? Int, 69)
        XCTAssertTrue(users.first?["name"] is NSNull, "name is null, not absent")
        XCTAssertEqual(users.first?["avatar_url"] as? String, "https://avatars.githubusercontent.com/u/43388?v=4")
        let empty = try object(.result(LookupResult(query: "he", status: .tooShort)))
        XCTAssertEqual(empty["status"] as? String, "too_short")
        XCTAssertEqual((empty["users"] as? [Any])?.count, 0)
    }

    func testEveryStatusSpelledAsTheContractSays() {
        let spelled = [LookupResult.Status.found, .notFound, .tooShort, .invalid, .rateLimited, .unavailable].map(\.rawValue)
        XCTAssertEqual(spelled, ["found", "not_found", "too_short", "invalid", "rate_limited", "unavailable"])
    }

    /// The events are written by hand (`JSONWriter`); Foundation's `JSONEncoder` (keys sorted,
    /// slashes unescaped: how the events were written before) is the reference, byte for byte,
    /// for users and search items with every optional present or absent, quotes, backslashes and
    /// non-ASCII text included.
    func testResultsAndSearchesMatchJSONEncoderByteForByte() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func encoded(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        let texts: [String?] = [nil, "", "héllo \"q\" \\ / 👍🏽", "https://github.com/a?b=c&d=e"]
        var users: [GithubUser] = []
        var items: [GithubSearchItem] = []
        for (index, text) in texts.enumerated() {
            for repos in [nil, 0, 42] {
                users.append(GithubUser(login: "u\(index)", id: index * 7 - 3, name: text, publicRepos: repos, avatarURL: texts[(index + 1) % 4], htmlURL: text))
            }
            items.append(GithubSearchItem(login: text ?? "x", id: index, avatarURL: text, htmlURL: texts[(index + 2) % 4]))
        }
        for (stale, limited) in [(false, false), (true, false), (false, true)] {
            let failure: GithubError? = limited ? .clientRateLimited(retryAfterSeconds: 5) : nil
            let lookup = LookupResult(query: "q\"uery", status: .found, users: users, failure: failure, stale: stale)
            XCTAssertEqual(GithubUserEvent.result(lookup).json, try encoded(ResultReference(
                type: "result", query: lookup.query, status: "found", users: users, stale: stale ? true : nil, scope: limited ? "client" : nil
            )))
            let search = SearchResult(query: "s/q", status: .ok, totalCount: 9, items: items, failure: failure, stale: stale)
            XCTAssertEqual(SearchEvent.search(search).json, try encoded(SearchReference(
                type: "search", query: search.query, status: "ok", total_count: 9, items: items, stale: stale ? true : nil, scope: limited ? "client" : nil
            )))
        }
    }

    private struct ResultReference: Encodable {
        let type: String, query: String, status: String, users: [GithubUser], stale: Bool?, scope: String?
    }

    private struct SearchReference: Encodable {
        let type: String, query: String, status: String, total_count: Int, items: [GithubSearchItem], stale: Bool?, scope: String?
    }
}

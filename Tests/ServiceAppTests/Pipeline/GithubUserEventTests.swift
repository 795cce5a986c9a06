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
}

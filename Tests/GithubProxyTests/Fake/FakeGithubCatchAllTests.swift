import FakeGithub
import Foundation
import GithubProxy
import XCTest

/// The fake's options for load runs: a default fault for every login, and synthetic users.
final class FakeGithubCatchAllTests: FakeGithubTestCase {
    func testUnknownLoginsAre404UnlessAnyLoginIsAnswered() throws {
        XCTAssertEqual(try XCTUnwrap(fetch("users/torvalds")).get().response.statusCode, 404)
        fake.answersAnyLogin = true
        let (data, response) = try XCTUnwrap(fetch("users/torvalds")).get()
        XCTAssertEqual(response.statusCode, 200)
        let user = try JSONDecoder().decode(GithubUser.self, from: data)
        XCTAssertEqual(user.login, "torvalds")
        XCTAssertEqual(response.value(forHTTPHeaderField: "ETag"), FakeGithubUser.synthetic(login: "torvalds")?.etag)
        // Fixtures still win; invalid logins still answer 404.
        let (fixture, _) = try XCTUnwrap(fetch("users/heckj")).get()
        XCTAssertEqual(try JSONDecoder().decode(GithubUser.self, from: fixture).publicRepos, 69)
        for invalid in ["-abc", "abc-", "a--b", "a_b", String(repeating: "a", count: 40)] {
            XCTAssertEqual(try XCTUnwrap(fetch("users/\(invalid)")).get().response.statusCode, 404, invalid)
        }
        fake.answersAnyLogin = false
        XCTAssertEqual(try XCTUnwrap(fetch("users/torvalds")).get().response.statusCode, 404)
    }

    func testSyntheticUsersAreStablePerLoginAndAnswer304() throws {
        let user = try XCTUnwrap(FakeGithubUser.synthetic(login: "Sindre-Sorhus9"))
        XCTAssertEqual(user, FakeGithubUser.synthetic(login: "sindre-sorhus9").map { var u = $0; u.login = user.login; return u })
        XCTAssertNotEqual(user.id, FakeGithubUser.synthetic(login: "sindre-sorhus8")?.id)
        XCTAssertEqual(user.login, "Sindre-Sorhus9")
        XCTAssertNotNil(FakeGithubUser.synthetic(login: String(repeating: "z", count: 39)))
        XCTAssertNil(FakeGithubUser.synthetic(login: ""))
        fake.answersAnyLogin = true
        let response = try XCTUnwrap(fetch("users/sindre-sorhus9", headers: ["If-None-Match": user.etag])).get().response
        XCTAssertEqual(response.statusCode, 304)
    }

    func testDefaultFaultAppliesToLoginsWithoutTheirOwn() throws {
        fake.defaultFault = .status(503)
        fake.setFault(.status(500), for: "heck")
        fake.script("hec", .status(502))
        let codes = try ["heckj", "heck", "hec", "hec"].map { try XCTUnwrap(fetch("users/\($0)")).get().response.statusCode }
        XCTAssertEqual(codes, [503, 500, 502, 503])
        fake.defaultFault = nil
        XCTAssertEqual(try XCTUnwrap(fetch("users/heckj")).get().response.statusCode, 200)
    }

    func testDefaultDelayAndAnyLoginGiveEveryLookupLatency() throws {
        fake.answersAnyLogin = true
        fake.defaultFault = .delay(.milliseconds(200))
        let start = Date()
        let (data, response) = try XCTUnwrap(fetch("users/gaearon")).get()
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.18)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(try JSONDecoder().decode(GithubUser.self, from: data).login, "gaearon")
    }

    func testDelayAlsoHoldsAnswersWithoutABody() throws {
        fake.defaultFault = .delay(.milliseconds(200))
        var start = Date()
        let notModified = try XCTUnwrap(fetch("users/heckj", headers: ["If-None-Match": #"W/"u43388v1""#])).get().response
        XCTAssertEqual(notModified.statusCode, 304)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.18, "a 304 is as slow as a 200")
        start = Date()
        XCTAssertEqual(try XCTUnwrap(fetch("users/nobody-here")).get().response.statusCode, 404)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.18, "so is a 404")
    }
}

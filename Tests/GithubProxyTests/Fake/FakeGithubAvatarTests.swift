import FakeGithub
import Foundation
import GithubProxy
import XCTest

/// The fake serves its users' avatars itself (`GET /avatars/u/{id}`), and its answers' `avatar_url`s
/// point there, on its own base URL: the pages show pictures offline (`make demo`).
final class FakeGithubAvatarTests: FakeGithubTestCase {
    /// (Search results name it too: `SearchTests`.)
    func testUsersNameTheFakesOwnAvatar() throws {
        let (data, _) = try XCTUnwrap(fetch("users/heckj")).get()
        let user = try JSONDecoder().decode(GithubUser.self, from: data)
        XCTAssertEqual(user.avatarURL, "\(baseURL.absoluteString)/avatars/u/43388?v=4")
    }

    /// An SVG of the size pages draw it, with the login's initial on a colour of the id; the
    /// avatar requests are not API requests: not in the log, counted apart.
    func testTheAvatarIsAnSVGWithTheLoginsInitial() throws {
        let (data, response) = try XCTUnwrap(fetch("avatars/u/43388")).get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Type"), "image/svg+xml")
        let svg = String(decoding: data, as: UTF8.self)
        XCTAssertEqual(svg, FakeGithubAvatar.svg(id: 43388, login: "heckj"))
        XCTAssertTrue(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="88" height="88""#), svg)
        XCTAssertTrue(svg.contains(">H</text>"), svg)
        XCTAssertNotEqual(FakeGithubAvatar.svg(id: 1, login: "a"), FakeGithubAvatar.svg(id: 2, login: "a"), "the colour follows the id")
        XCTAssertEqual(fake.requestCount, 0, "not an API request")
        XCTAssertEqual(fake.avatarRequestCount, 1)
    }

    /// A synthetic user's avatar knows its login once the user was answered; an id never
    /// answered gets a `?`; anything that is not an id is a 404.
    func testSyntheticAndUnknownIds() throws {
        fake.answersAnyLogin = true
        let user = try XCTUnwrap(FakeGithubUser.synthetic(login: "zed"))
        XCTAssertTrue(String(decoding: try XCTUnwrap(fetch("avatars/u/\(user.id)")).get().data, as: UTF8.self).contains(">?</text>"))
        XCTAssertEqual(try XCTUnwrap(fetch("users/zed")).get().response.statusCode, 200)
        XCTAssertTrue(String(decoding: try XCTUnwrap(fetch("avatars/u/\(user.id)")).get().data, as: UTF8.self).contains(">Z</text>"))
        XCTAssertEqual(try XCTUnwrap(fetch("avatars/u/nope")).get().response.statusCode, 404)
        XCTAssertTrue(FakeGithubAvatar.svg(id: 3, login: "<x").contains(">?</text>"), "nothing that would need escaping")
    }
}

import GithubProxy
import XCTest

final class GithubLoginTests: XCTestCase {
    func testAcceptsGithubsLogins() {
        for login in ["h", "heckj", "a-b", "A1-b2-C3", String(repeating: "x", count: 39), "0"] {
            XCTAssertTrue(GithubLogin.isValid(login), login)
        }
    }

    func testRejectsEverythingElse() {
        let invalid = [
            "", "-heck", "heck-", "he--ck", String(repeating: "x", count: 40), "heck j", "héck", "heck/../x",
            "heck?x=1", "heck%2F", "heck_j", "heck.j", "../etc", "heck\n", "😀",
        ]
        for login in invalid {
            XCTAssertFalse(GithubLogin.isValid(login), login)
        }
    }
}

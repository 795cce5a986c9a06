@testable import HTTPServer
import XCTest

final class HTTPHeadersTests: XCTestCase {
    func testNamesCompareIgnoringASCIICaseOnly() {
        let headers: HTTPHeaders = ["Content-Type": "text/plain", "X-Ünï": "1"]
        XCTAssertEqual(headers["content-TYPE"], "text/plain")
        XCTAssertNil(headers["Content-Typf"])
        XCTAssertNil(headers["Content-Type "])
        XCTAssertEqual(headers["x-Ünï"], "1")
        XCTAssertNil(headers["x-ünï"], "non-ASCII letters are not folded")
        XCTAssertTrue("[".caseInsensitiveEquals("{") == false, "only letters fold")
        XCTAssertFalse("@".caseInsensitiveEquals("`"))
    }

    func testTokenListsAreSearchedElementByElement() {
        let headers = HTTPHeaders([("Connection", "keep-alive, Upgrade"), ("connection", " \tCLOSE\t ,,")])
        XCTAssertTrue(headers.contains("Connection", token: "upgrade"))
        XCTAssertTrue(headers.contains("CONNECTION", token: "close"))
        XCTAssertTrue(headers.contains("Connection", token: "Keep-Alive"))
        XCTAssertFalse(headers.contains("Connection", token: "keep"))
        XCTAssertFalse(headers.contains("Connection", token: "alive, upgrade"))
        XCTAssertFalse(headers.contains("Connection", token: ""))
        XCTAssertFalse(headers.contains("Upgrade", token: "close"))
        XCTAssertEqual(headers.tokens(for: "connection"), ["keep-alive", "upgrade", "close"])
    }
}

import Foundation
@testable import GithubProxy
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response head answers field look-ups as `HTTPURLResponse` does, which the GitHub client
/// read before it: names compared ignoring case, a repeated field's values joined.
final class CurlResponseHeadTests: XCTestCase {
    private let head = CurlResponseHead(
        url: URL(string: "http://127.0.0.1/users/heckj")!, statusCode: 200, httpVersion: "HTTP/1.1",
        fields: [
            ("ETag", "\"abc\""), ("Cache-Control", "max-age=60"), ("x-ratelimit-remaining", "59"),
            ("Vary", "Accept"), ("vary", "Authorization"), ("X-Rate_Limit", "1"),
        ]
    )

    func testNamesCompareIgnoringCase() {
        XCTAssertEqual(head.value(forHTTPHeaderField: "etag"), "\"abc\"")
        XCTAssertEqual(head.value(forHTTPHeaderField: "CACHE-CONTROL"), "max-age=60")
        XCTAssertEqual(head.value(forHTTPHeaderField: "X-RateLimit-Remaining"), "59")
    }

    func testOnlyLettersFoldCase() {
        // `-` (0x2D) and `_` (0x5F) differ by more than the case bit; `[` and `{` by exactly it.
        XCTAssertEqual(head.value(forHTTPHeaderField: "x-rate_limit"), "1")
        XCTAssertNil(head.value(forHTTPHeaderField: "x-rate-limit"))
        XCTAssertNil(head.value(forHTTPHeaderField: "X-Rate\u{7F}Limit"))
        let bracket = CurlResponseHead(url: head.url, statusCode: 200, httpVersion: "HTTP/1.1", fields: [("a[", "1")])
        XCTAssertNil(bracket.value(forHTTPHeaderField: "a{"))
    }

    func testRepeatedFieldsJoinInOrder() {
        XCTAssertEqual(head.value(forHTTPHeaderField: "Vary"), "Accept, Authorization")
    }

    func testAbsentFieldIsNil() {
        XCTAssertNil(head.value(forHTTPHeaderField: "Retry-After"))
        XCTAssertNil(head.value(forHTTPHeaderField: "ETa"))
    }

    func testFoundationResponseCarriesTheSameHead() throws {
        let response = try XCTUnwrap(head.httpURLResponse)
        XCTAssertEqual(response.url, head.url)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.value(forHTTPHeaderField: "etag"), "\"abc\"")
        XCTAssertEqual(response.value(forHTTPHeaderField: "Cache-Control"), "max-age=60")
    }
}

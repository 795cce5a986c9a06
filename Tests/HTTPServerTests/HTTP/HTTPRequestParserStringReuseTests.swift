@testable import HTTPServer
import XCTest

/// The parser refills the last request's header storage in place and hands out the last
/// request's strings again where the next one repeats their bytes (target and fields of more
/// than 15 bytes, which would otherwise each cost an allocation).
final class HTTPRequestParserStringReuseTests: XCTestCase {
    private static let userAgent =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
    private static let accept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

    private func request(_ target: String, _ fields: [(String, String)]) -> String {
        "GET \(target) HTTP/1.1\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
    }

    /// The requests `texts` yield, fed one after the other to one parser (one keep-alive connection).
    private func parseOnOneConnection(_ texts: [String]) throws -> [HTTPRequest] {
        var parser = HTTPRequestParser()
        var requests: [HTTPRequest] = []
        for text in texts {
            for event in try parser.feed(Array(text.utf8)) {
                if case .complete(let request) = event { requests.append(request) }
            }
        }
        return requests
    }

    /// Where a string's UTF-8 bytes live: the same address means the same storage.
    private func storage(_ string: String) -> UnsafeRawPointer? {
        string.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    func testRepeatedLongTargetAndFieldsShareTheLastRequestsStorage() throws {
        let fields = [("Host", "127.0.0.1:8080"), ("User-Agent", Self.userAgent), ("Accept", Self.accept),
                      ("Sec-Fetch-Mode", "navigate")]
        let text = request("/api/users/octocat/repos", fields)
        let parsed = try parseOnOneConnection([text, text, text])
        XCTAssertEqual(parsed.count, 3)
        for r in parsed {
            XCTAssertEqual(r.target, "/api/users/octocat/repos")
            XCTAssertEqual(r.headers, HTTPHeaders(fields))
        }
        for (earlier, later) in zip(parsed, parsed.dropFirst()) {
            XCTAssertNotNil(storage(later.target))
            XCTAssertEqual(storage(later.target), storage(earlier.target))
            XCTAssertEqual(storage(later.headers["User-Agent"]!), storage(earlier.headers["User-Agent"]!))
            XCTAssertEqual(storage(later.headers["Accept"]!), storage(earlier.headers["Accept"]!))
        }
    }

    func testChangedReorderedAndFewerFieldsAreTheNewRequestsOwn() throws {
        let first = request("/api/users/octocat/repos", [
            ("User-Agent", Self.userAgent), ("Accept", Self.accept), ("Cookie", "session=aaaaaaaaaaaaaaaaaaaa"),
            ("Host", "a"), ("X-Long-Header-Name-Here", "1"),
        ])
        // Same length, other bytes at the same place; two fields swapped; one field fewer.
        let second = request("/api/users/octocat/reposY", [
            ("User-Agent", String(Self.userAgent.dropLast()) + "X"), ("Cookie", "session=bbbbbbbbbbbbbbbbbbbb"),
            ("Accept", Self.accept), ("Host", "b"),
        ])
        let parsed = try parseOnOneConnection([first, second])
        XCTAssertEqual(parsed.count, 2)
        XCTAssertEqual(parsed[1].target, "/api/users/octocat/reposY")
        XCTAssertEqual(parsed[1].headers, HTTPHeaders([
            ("User-Agent", String(Self.userAgent.dropLast()) + "X"), ("Cookie", "session=bbbbbbbbbbbbbbbbbbbb"),
            ("Accept", Self.accept), ("Host", "b"),
        ]))
        XCTAssertNotEqual(storage(parsed[1].target), storage(parsed[0].target))
        // The request handed out first is a value: the refill did not touch it.
        XCTAssertEqual(parsed[0].target, "/api/users/octocat/repos")
        XCTAssertEqual(parsed[0].headers, HTTPHeaders([
            ("User-Agent", Self.userAgent), ("Accept", Self.accept), ("Cookie", "session=aaaaaaaaaaaaaaaaaaaa"),
            ("Host", "a"), ("X-Long-Header-Name-Here", "1"),
        ]))
    }

    func testFewerFieldsFedByteByByteShowNoneOfTheLastRequests() throws {
        var parser = HTTPRequestParser()
        _ = try parser.feed(Array(request("/a", [("Host", "a"), ("User-Agent", Self.userAgent)]).utf8))
        var last: HTTPRequest?
        for byte in Array(request("/b", [("Host", "b")]).utf8) {
            for event in try parser.feed([byte]) {
                if case .complete(let r) = event { last = r }
            }
        }
        XCTAssertEqual(last?.headers, ["Host": "b"])
    }
}

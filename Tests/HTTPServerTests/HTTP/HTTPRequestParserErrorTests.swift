@testable import HTTPServer
import XCTest

/// Every error status with a minimal reproducing input (each fed whole and byte at a time).
final class HTTPRequestParserErrorTests: XCTestCase {
    func testMalformedRequestLine400() {
        for line in ["GET /\r\n", "GET  / HTTP/1.1\r\n", "G(T / HTTP/1.1\r\n", " GET / HTTP/1.1\r\n",
                     "GET / HTTX/1.1\r\n", "GET / HTTP/1.10\r\n", "GET / HTTP/1\r\n", "GET /a\u{1}b HTTP/1.1\r\n",
                     "GET /é HTTP/1.1\r\n", "GET / HTTP/1.1 \r\n", "GET / HTTP/1.1\n", "GET / HTTP/1.1\r\r\n"] {
            assertParseError(line, .malformedRequestLine, status: 400)
        }
    }

    func testMalformedHeader400() {
        for field in ["Host a", "Host : a", "Ho(st: a", ": a", "X: a\u{0}b", "X: a\rb", "Höst: a"] {
            assertParseError("GET / HTTP/1.1\r\n\(field)\r\n\r\n", .malformedHeader, status: 400)
        }
        assertParseError("GET / HTTP/1.1\r\nHost: a\n\r\n", .malformedHeader, status: 400)  // bare LF
    }

    func testObsoleteLineFolding400() {
        assertParseError("GET / HTTP/1.1\r\nHost: a\r\nX: b\r\n  folded\r\n\r\n", .obsoleteLineFolding, status: 400)
        assertParseError("GET / HTTP/1.1\r\n\tX: b\r\nHost: a\r\n\r\n", .obsoleteLineFolding, status: 400)
    }

    func testInvalidContentLength400() {
        for value in ["abc", "-1", "+5", "5, 6", "", "5 5", "0x5", "1,"] {
            assertParseError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \(value)\r\n\r\n", .invalidContentLength, status: 400)
        }
        assertParseError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
                         .invalidContentLength, status: 400)
    }

    func testContentLengthWithTransferEncoding400() {
        assertParseError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
                         .conflictingFraming, status: 400)
        assertParseError("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
                         .conflictingFraming, status: 400)
    }

    func testInvalidTransferEncoding400() {
        for value in ["chunked, chunked", "chunked\r\nTransfer-Encoding: chunked", ","] {
            assertParseError("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \(value)\r\n\r\n", .invalidTransferEncoding, status: 400)
        }
        assertParseError("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", .invalidTransferEncoding, status: 400)
    }

    func testInvalidChunk400() {
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        for body in ["zz\r\n", "\r\n", ";ext\r\n", "5 x\r\nhello\r\n", "-1\r\n", "10000000000000000\r\n",
                     "fffffffffffffffffff\r\n", "5\r\nhelloXX", "5\r\nhello\rX", "5\r\nhello\n\r\n", "5\n"] {
            assertParseError(head + body, .invalidChunk, status: 400)
        }
    }

    func testHost400() {
        assertParseError("GET / HTTP/1.1\r\n\r\n", .invalidHost, status: 400)
        assertParseError("GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n", .invalidHost, status: 400)
        assertParseError("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", .invalidHost, status: 400)
    }

    func testUnknownTransferEncoding501() {
        for value in ["gzip", "gzip, chunked", "chunked;x=1", "identity"] {
            assertParseError("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \(value)\r\n\r\n",
                             .unsupportedTransferEncoding, status: 501)
        }
    }

    func testUnsupportedVersion505() {
        for version in ["HTTP/2.0", "HTTP/0.9", "HTTP/3.0"] {
            assertParseError("GET / \(version)\r\n\r\n", .unsupportedVersion, status: 505)
        }
    }

    func testHugeContentLength413() {
        assertParseError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999999\r\n\r\n",
                         .bodyTooLarge, status: 413)
    }

    // MARK: limits, exactly at and one past

    func testRequestLineLimit414() {
        let line = "GET /aaaaaaaa HTTP/1.1"  // 22 bytes
        XCTAssertEqual(line.utf8.count, 22)
        let request = line + "\r\nHost: a\r\n\r\n"
        for piece in [nil, 1] as [Int?] {
            XCTAssertEqual(requests(request, limits: HTTPParserLimits(maxRequestLineBytes: 22), piece: piece).count, 1)
        }
        assertParseError(request, .requestLineTooLong, status: 414, limits: HTTPParserLimits(maxRequestLineBytes: 21))
    }

    func testRequestLineLimitFiresBeforeTheLineEnds() throws {
        var parser = HTTPRequestParser(limits: HTTPParserLimits(maxRequestLineBytes: 10))
        XCTAssertNil(try parser.feed(Array("GET /abcdef".utf8)).first)  // 11 bytes: may still be 10 + CR
        XCTAssertThrowsError(try parser.feed(Array("g".utf8))) {
            XCTAssertEqual($0 as? HTTPParseError, .requestLineTooLong)
        }
    }

    func testHeaderSectionLimit431() {
        let section = "Host: a\r\nX-Long: 0123456789\r\n\r\n"
        let request = "GET / HTTP/1.1\r\n" + section
        let size = section.utf8.count
        for piece in [nil, 1] as [Int?] {
            XCTAssertEqual(requests(request, limits: HTTPParserLimits(maxHeaderBytes: size), piece: piece).count, 1)
        }
        assertParseError(request, .headerSectionTooLarge, status: 431, limits: HTTPParserLimits(maxHeaderBytes: size - 1))
    }

    func testHeaderSectionLimitFiresBeforeTheLineEnds() throws {
        var parser = HTTPRequestParser(limits: HTTPParserLimits(maxHeaderBytes: 20))
        XCTAssertNil(try parser.feed(Array("GET / HTTP/1.1\r\nX: 0123456789abcdef".utf8)).first)  // 19 + LF
        XCTAssertThrowsError(try parser.feed(Array("g".utf8))) {
            XCTAssertEqual($0 as? HTTPParseError, .headerSectionTooLarge)
        }
    }

    func testHeaderCountLimit431() {
        let request = "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n"
        for piece in [nil, 1] as [Int?] {
            XCTAssertEqual(requests(request, limits: HTTPParserLimits(maxHeaderCount: 3), piece: piece).count, 1)
        }
        assertParseError(request, .tooManyHeaders, status: 431, limits: HTTPParserLimits(maxHeaderCount: 2))
    }

    func testTrailerSectionLimit431() {
        // Header section: 39 bytes; trailer section has its own 50-byte budget.
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n"
        let atLimit = "A: " + String(repeating: "x", count: 43) + "\r\n\r\n"  // 50 bytes
        XCTAssertEqual(atLimit.utf8.count, 50)
        for piece in [nil, 1] as [Int?] {
            XCTAssertEqual(requests(head + atLimit, limits: HTTPParserLimits(maxHeaderBytes: 50), piece: piece).count, 1)
        }
        assertParseError(head + "A: " + String(repeating: "x", count: 44) + "\r\n\r\n", .headerSectionTooLarge,
                         status: 431, limits: HTTPParserLimits(maxHeaderBytes: 50))
        assertParseError(head + "bad trailer\r\n\r\n", .malformedHeader, status: 400)
    }

    func testContentLengthBodyLimit413() {
        let exact = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 8\r\n\r\n12345678"
        for piece in [nil, 1] as [Int?] {
            XCTAssertEqual(requests(exact, limits: HTTPParserLimits(maxBodyBytes: 8), piece: piece).first?.body.count, 8)
        }
        // Rejected on the head, before any body byte arrives.
        assertParseError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n", .bodyTooLarge, status: 413,
                         limits: HTTPParserLimits(maxBodyBytes: 8))
    }

    func testChunkedBodyLimit413() {
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        let exact = head + "3\r\nabc\r\n5\r\ndefgh\r\n0\r\n\r\n"
        for piece in [nil, 1] as [Int?] {
            XCTAssertEqual(requests(exact, limits: HTTPParserLimits(maxBodyBytes: 8), piece: piece).first?.body.count, 8)
        }
        // The size line announcing the 9th byte is enough.
        assertParseError(head + "3\r\nabc\r\n6\r\n", .bodyTooLarge, status: 413, limits: HTTPParserLimits(maxBodyBytes: 8))
        assertParseError(head + "7fffffffffffffff\r\n", .bodyTooLarge, status: 413)
    }

    func testChunkLineLengthIsBounded() {
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        assertParseError(head + "1;" + String(repeating: "x", count: 5000), .invalidChunk, status: 400)
    }
}

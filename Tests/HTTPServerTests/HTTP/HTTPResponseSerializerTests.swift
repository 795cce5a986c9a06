@testable import HTTPServer
import XCTest

final class HTTPResponseSerializerTests: XCTestCase {
    private func lines(_ bytes: [UInt8]) -> (head: [String], body: [UInt8]) {
        let marker: [UInt8] = [13, 10, 13, 10]
        guard let end = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == marker }) else {
            return ([], [])
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        return (head, Array(bytes[(end + 4)...]))
    }

    private func serialize(_ response: HTTPResponse, _ context: HTTPResponseSerializer.Context = .init())
        -> (head: [String], body: [UInt8], framing: HTTPResponseSerializer.BodyFraming) {
        var serializer = HTTPResponseSerializer()
        let (bytes, framing) = serializer.serialize(response, context: context)
        let (head, body) = lines(bytes)
        return (head, body, framing)
    }

    func testOkWithBytesBody() {
        let r = serialize(HTTPResponse(text: "hello"))
        XCTAssertEqual(r.head.first, "HTTP/1.1 200 OK")
        XCTAssertTrue(r.head.contains("Content-Type: text/plain; charset=utf-8"))
        XCTAssertTrue(r.head.contains("Content-Length: 5"))
        XCTAssertFalse(r.head.contains { $0.hasPrefix("Connection") })
        XCTAssertEqual(r.body, Array("hello".utf8))
        XCTAssertEqual(r.framing, .complete)
        let date = r.head.first { $0.hasPrefix("Date: ") }
        XCTAssertNotNil(date?.range(of: #"^Date: [A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$"#, options: .regularExpression))
    }

    func testEmptyBodyHasContentLengthZero() {
        XCTAssertTrue(serialize(HTTPResponse(status: .ok)).head.contains("Content-Length: 0"))
    }

    func testNoContentLengthFor1xx204And304() {
        for status in [HTTPStatus.noContent, .notModified, .switchingProtocols, .continue] {
            let r = serialize(HTTPResponse(status: status, headers: ["Content-Length": "3"], body: .bytes([1, 2, 3])))
            XCTAssertFalse(r.head.contains { $0.hasPrefix("Content-Length") }, "\(status)")
            XCTAssertEqual(r.body, [], "\(status)")
        }
        XCTAssertFalse(serialize(HTTPResponse(status: .switchingProtocols)).head.contains { $0.hasPrefix("Date") })
    }

    func testHeadGetsHeadersButNoBody() {
        let r = serialize(HTTPResponse(text: "hello"), .init(isHeadRequest: true))
        XCTAssertTrue(r.head.contains("Content-Length: 5"))
        XCTAssertEqual(r.body, [])
        let declared = serialize(HTTPResponse(headers: ["Content-Length": "42"]), .init(isHeadRequest: true))
        XCTAssertTrue(declared.head.contains("Content-Length: 42"))
    }

    func testManagedHeadersAreReplaced() {
        let response = HTTPResponse(headers: ["Content-Length": "99", "Transfer-Encoding": "chunked", "date": "x", "X-A": "1"],
                                    body: .bytes([1]))
        let r = serialize(response)
        XCTAssertTrue(r.head.contains("Content-Length: 1"))
        XCTAssertFalse(r.head.contains("Content-Length: 99"))
        XCTAssertFalse(r.head.contains { $0.hasPrefix("Transfer-Encoding") || $0 == "date: x" })
        XCTAssertTrue(r.head.contains("X-A: 1"))
    }

    func testConnectionClose() {
        let r = serialize(HTTPResponse(headers: ["Connection": "keep-alive"]), .init(closeConnection: true))
        XCTAssertTrue(r.head.contains("Connection: close"))
        XCTAssertFalse(r.head.contains("Connection: keep-alive"))
        let http10 = serialize(HTTPResponse(), .init(isHTTP10: true))
        XCTAssertTrue(http10.head.contains("Connection: keep-alive"))
    }

    func testContextFromRequest() {
        let head = HTTPRequest(method: .head, target: "/", version: (1, 0))
        XCTAssertEqual(HTTPResponseSerializer.Context(request: head),
                       .init(isHeadRequest: true, closeConnection: true, isHTTP10: true))
        let get = HTTPRequest(method: .get, target: "/", headers: ["Connection": "close"])
        XCTAssertEqual(HTTPResponseSerializer.Context(request: get), .init(closeConnection: true))
    }

    func testStreamBodies() {
        let stream = HTTPResponse(body: .stream { writer in writer.finish() })
        let chunked = serialize(stream)
        XCTAssertTrue(chunked.head.contains("Transfer-Encoding: chunked"))
        XCTAssertFalse(chunked.head.contains { $0.hasPrefix("Content-Length") })
        XCTAssertEqual(chunked.framing, .chunked)
        let head = serialize(stream, .init(isHeadRequest: true))
        XCTAssertTrue(head.head.contains("Transfer-Encoding: chunked"))
        XCTAssertEqual(head.framing, .complete)
        let http10 = serialize(stream, .init(isHTTP10: true))
        XCTAssertEqual(http10.framing, .untilClose)
        XCTAssertTrue(http10.head.contains("Connection: close"))
        XCTAssertFalse(http10.head.contains { $0.hasPrefix("Transfer-Encoding") })
        XCTAssertEqual(serialize(HTTPResponse(status: .noContent, body: .stream { $0.finish() })).framing, .complete)
    }

    func testResponseSplittingIsPrevented() {
        let r = serialize(HTTPResponse(headers: ["X-Evil": "a\r\nSet-Cookie: x", "Bad Name": "v"]))
        XCTAssertTrue(r.head.contains("X-Evil: a  Set-Cookie: x"))
        XCTAssertFalse(r.head.contains { $0.hasPrefix("Bad Name") || $0.hasPrefix("Set-Cookie") })
    }

    func testStatusCodesAndCustomReason() {
        XCTAssertEqual(serialize(HTTPResponse(status: HTTPStatus(418, "I'm a teapot"))).head.first, "HTTP/1.1 418 I'm a teapot")
        XCTAssertEqual(serialize(HTTPResponse(status: .notFound)).head.first, "HTTP/1.1 404 Not Found")
        let big = serialize(HTTPResponse(body: .bytes(Array(repeating: 0, count: 1_234_567))))
        XCTAssertTrue(big.head.contains("Content-Length: 1234567"))
        XCTAssertEqual(big.body.count, 1_234_567)
    }

    func testIMFFixdate() {
        XCTAssertEqual(HTTPDateCache.imfFixdate(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")  // RFC 9110 example
        XCTAssertEqual(HTTPDateCache.imfFixdate(0), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(HTTPDateCache.imfFixdate(951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT")
        XCTAssertEqual(HTTPDateCache.imfFixdate(4_102_444_799), "Thu, 31 Dec 2099 23:59:59 GMT")
        XCTAssertEqual(HTTPDateCache.imfFixdate(-1), "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    func testDateCachedPerSecond() {
        var cache = HTTPDateCache()
        XCTAssertEqual(cache.bytes(now: 784_111_777), Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8))
        XCTAssertEqual(cache.bytes(now: 784_111_777), Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8))
        XCTAssertEqual(cache.bytes(now: 784_111_778), Array("Sun, 06 Nov 1994 08:49:38 GMT".utf8))
    }

    func testChunkFraming() {
        XCTAssertEqual(HTTPChunkedEncoding.chunk(Array("hello".utf8)), Array("5\r\nhello\r\n".utf8))
        XCTAssertEqual(HTTPChunkedEncoding.chunk([]), [])
        XCTAssertEqual(Array(HTTPChunkedEncoding.chunk(Array(repeating: 0x61, count: 255)).prefix(4)), Array("ff\r\n".utf8))
        XCTAssertEqual(Array(HTTPChunkedEncoding.chunk(Array(repeating: 0x61, count: 4096)).prefix(5)), Array("1000\r".utf8))
        XCTAssertEqual(HTTPChunkedEncoding.lastChunk, Array("0\r\n\r\n".utf8))
        var header: [UInt8] = []
        HTTPChunkedEncoding.appendChunkHeader(count: 0x1A2B3C, to: &header)
        XCTAssertEqual(header, Array("1a2b3c\r\n".utf8))
    }
}

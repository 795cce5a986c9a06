@testable import HTTPServer
import XCTest

final class StaticResponseTests: XCTestCase {
    private let health = HTTPResponse(status: .ok, contentType: "application/json", text: #"{"status":"ok"}"#)

    func testPreparedBytesAreWhatTheSerializerWrites() {
        let fixed = StaticResponse(health)
        var serializer = HTTPResponseSerializer()
        var prepared: [UInt8] = []
        serializer.serialize(fixed, into: &prepared)
        var usual: [UInt8] = []
        serializer.serialize(health, context: .init(), into: &usual)  // same second, same Date
        XCTAssertEqual(String(decoding: prepared, as: UTF8.self), String(decoding: usual, as: UTF8.self))
        XCTAssertTrue(String(decoding: prepared, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\nDate: "))
    }

    func testPreparedBytesOnlyAnswerKeepAliveHTTP11Gets() {
        let fixed = StaticResponse(health)
        XCTAssertTrue(fixed.fits(HTTPRequest(method: .get, target: "/healthz"), compress: true))
        XCTAssertFalse(fixed.fits(HTTPRequest(method: .head, target: "/healthz"), compress: true), "no body")
        XCTAssertFalse(fixed.fits(HTTPRequest(method: .get, target: "/healthz", version: (1, 0)), compress: true))
        let closing = HTTPRequest(method: .get, target: "/healthz", headers: ["Connection": "close"])
        XCTAssertFalse(fixed.fits(closing, compress: true), "Connection: close is added")
    }

    func testABodyCompressionCouldChangeIsPreparedOnlyForServersThatDoNotCompress() {
        let page = HTTPResponse(status: .ok, contentType: "text/html", text: String(repeating: "<p>hi</p>", count: 200))
        let fixed = StaticResponse(page)
        let request = HTTPRequest(method: .get, target: "/")
        XCTAssertFalse(fixed.fits(request, compress: true))
        XCTAssertTrue(fixed.fits(request, compress: false))
    }

    func testAStreamedBodyIsNeverPrepared() {
        let fixed = StaticResponse(HTTPResponse(body: .stream { $0.finish() }))
        XCTAssertFalse(fixed.fits(HTTPRequest(method: .get, target: "/"), compress: false))
    }
}

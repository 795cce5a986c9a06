import CZlib
@testable import HTTPServer
import XCTest

/// Inflates a gzip member with zlib (windowBits 31), or `nil` on any error.
func gunzip(_ data: [UInt8]) -> [UInt8]? {
    var stream = z_stream()
    guard czlib_inflateInit2(&stream, 31) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    var input = data
    return input.withUnsafeMutableBufferPointer { inBuf -> [UInt8]? in
        stream.next_in = inBuf.baseAddress
        stream.avail_in = uInt(inBuf.count)
        while true {
            let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let status = inflate(&stream, Z_NO_FLUSH)
                return (status, out.count - Int(stream.avail_out))
            }
            output += chunk[..<produced]
            if status == Z_STREAM_END { return stream.avail_in == 0 ? output : nil }
            if status != Z_OK { return nil }
        }
    }
}

final class GzipEncoderTests: XCTestCase {
    func testRoundTrip() throws {
        let encoder = try GzipEncoder()
        var rng = SplitMix64(seed: 7)
        let text = Array(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 3000).utf8)
        let random = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        for input in [[], [0x41], text, random] as [[UInt8]] {
            let compressed = try encoder.compress(input)
            XCTAssertEqual(Array(compressed.prefix(3)), [0x1F, 0x8B, 0x08], "gzip magic and deflate")
            XCTAssertEqual(gunzip(compressed), input)
        }
        XCTAssertLessThan(try encoder.compress(text).count, text.count / 20)
        XCTAssertEqual(try encoder.compress(text), try encoder.compress(text), "reset between bodies")
    }

    func testAcceptEncodingNegotiationTable() {
        let table: [(String?, Bool)] = [
            (nil, false),
            ("", false),
            ("gzip", true),
            ("GZIP", true),
            ("x-gzip", true),
            ("deflate, gzip", true),
            ("gzip, deflate, br", true),
            ("br", false),
            ("identity", false),
            ("*", true),
            ("*;q=0", false),
            ("gzip;q=0", false),
            ("gzip; q=0.000", false),
            ("gzip;q=0.001", true),
            ("gzip;q=1.0", true),
            ("gzip;Q=0.5", true),
            ("gzip;q=0, *", false),
            ("*, gzip;q=0", false),
            ("br, *;q=0.1", true),
            ("gzip;q=0.5, identity", false),
            ("gzip;q=0.5, identity;q=0.5", true),
            ("gzip, identity;q=0", true),
            ("gzip;q=2", false),
            ("gzip;q=abc", false),
            ("gzip;q=1.5", false),
            ("  gzip  ;  q=0.8 ", true),
            (",,gzip,,", true),
        ]
        for (header, expected) in table {
            XCTAssertEqual(AcceptEncoding.prefersGzip(header), expected, "Accept-Encoding: \(header ?? "<none>")")
        }
    }

    private func json(_ count: Int) -> [UInt8] {
        Array(("[" + String(repeating: "{\"login\":\"heckj\"},", count: count / 17) + "{}]").utf8)
    }

    func testCompressorGzipsEligibleResponses() throws {
        let compressor = ResponseCompressor()
        let body = json(4000)
        let response = HTTPResponse(headers: ["Content-Type": "application/json"], body: .bytes(body))
        let result = compressor.compress(response, acceptEncoding: "gzip, deflate")
        XCTAssertEqual(result.headers["Content-Encoding"], "gzip")
        XCTAssertEqual(result.headers["Vary"], "Accept-Encoding")
        guard case .bytes(let compressed) = result.body else { return XCTFail("expected bytes") }
        XCTAssertLessThan(compressed.count, body.count)
        XCTAssertEqual(gunzip(compressed), body)

        let request = HTTPRequest(method: .get, target: "/", headers: ["Accept-Encoding": "br", "accept-encoding": "gzip"])
        XCTAssertEqual(compressor.compress(response, for: request).headers["Content-Encoding"], "gzip")
    }

    func testCompressorLeavesOthersAlone() {
        let compressor = ResponseCompressor()
        let body = json(4000)
        func run(_ type: String?, _ body: [UInt8], status: HTTPStatus = .ok, extra: HTTPHeaders = [:], accept: String? = "gzip")
            -> HTTPResponse {
            var headers = extra
            if let type { headers.add("Content-Type", type) }
            return compressor.compress(HTTPResponse(status: status, headers: headers, body: .bytes(body)), acceptEncoding: accept)
        }
        // Not accepted: identity, but Vary since the representation depends on it.
        let refused = run("application/json", body, accept: "gzip;q=0")
        XCTAssertNil(refused.headers["Content-Encoding"])
        XCTAssertEqual(refused.headers["Vary"], "Accept-Encoding")
        XCTAssertNil(run("application/json", body, accept: nil).headers["Content-Encoding"])
        // Too small, incompressible type, no type, already encoded, bodyless status: untouched.
        XCTAssertNil(run("application/json", Array(body.prefix(1023))).headers["Vary"])
        XCTAssertEqual(run("application/json", Array(body.prefix(1024))).headers["Content-Encoding"], "gzip")
        XCTAssertNil(run("image/png", body).headers["Vary"])
        XCTAssertNil(run(nil, body).headers["Vary"])
        XCTAssertEqual(run("text/plain", body, extra: ["Content-Encoding": "br"]).headers["Content-Encoding"], "br")
        XCTAssertNil(run("text/plain", body, status: .notModified).headers["Vary"])
        // Existing Vary is extended, not duplicated.
        XCTAssertEqual(run("text/html", body, extra: ["Vary": "Accept-Encoding"]).headers.values(for: "Vary"), ["Accept-Encoding"])
        XCTAssertEqual(run("text/html", body, extra: ["Vary": "Origin"]).headers.values(for: "Vary"), ["Origin", "Accept-Encoding"])
    }

    func testCompressibleTypes() {
        for type in ["text/html; charset=utf-8", "TEXT/CSS", "application/json", "application/javascript",
                     "image/svg+xml", "application/problem+json", "application/atom+xml"] {
            XCTAssertTrue(ResponseCompressor.isCompressible(contentType: type), type)
        }
        for type in ["image/png", "image/jpeg", "application/octet-stream", "application/zip", "video/mp4", ""] {
            XCTAssertFalse(ResponseCompressor.isCompressible(contentType: type), type)
        }
    }

    func testSerializedGzipResponseHasMatchingContentLength() throws {
        let body = json(2000)
        let compressed = ResponseCompressor().compress(
            HTTPResponse(headers: ["Content-Type": "text/plain"], body: .bytes(body)), acceptEncoding: "*")
        var serializer = HTTPResponseSerializer()
        let (bytes, _) = serializer.serialize(compressed)
        guard case .bytes(let gz) = compressed.body else { return XCTFail("expected bytes") }
        XCTAssertTrue(String(decoding: bytes.prefix(300), as: UTF8.self).contains("Content-Length: \(gz.count)\r\n"))
        XCTAssertEqual(Array(bytes.suffix(gz.count)), gz)
    }
}

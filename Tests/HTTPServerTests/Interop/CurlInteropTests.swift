import Foundation
import HTTPServer
import XCTest

/// The HTTP/1.1 server driven by the `curl` command line client.
final class CurlInteropTests: XCTestCase {
    /// About 170 KiB of very compressible text.
    private static let largeBody = (0 ..< 4000).map { "line \($0): the quick brown fox jumps over the lazy dog\n" }.joined()
    private static let streamChunks = ["first chunk\n", "second chunk\n", "third chunk\n"]

    private var server: HTTPServer?
    private var base = ""
    private var curlPath = ""
    private var scratch: URL?

    override func setUpWithError() throws {
        curlPath = try Interop.require(["curl"], install: "apt-get install -y curl")
        let (server, address) = try Interop.startServer { router in
            router.get("/large", immediate: { _ in HTTPResponse(text: Self.largeBody) })
            router.get("/small", immediate: { _ in HTTPResponse(text: "small\n") })
            router.get("/stream", immediate: { _ in
                HTTPResponse(body: .stream { writer in
                    for chunk in Self.streamChunks { writer.write(Array(chunk.utf8)) }
                    writer.finish()
                })
            })
            router.post("/echo") { request in
                HTTPResponse(headers: ["Content-Type": "application/octet-stream"], body: .bytes(request.body))
            }
        }
        self.server = server
        base = "http://127.0.0.1:\(address.port)"
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("curl-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        self.scratch = scratch
    }

    override func tearDown() {
        if let server { Interop.stop(server) }
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    private func curl(_ arguments: [String]) throws -> ProcessResult {
        let result = try Interop.run(curlPath, ["--silent", "--show-error", "--max-time", "10"] + arguments, timeout: 15)
        XCTAssertFalse(result.timedOut, result.summary)
        return result
    }

    private func file(_ name: String) -> URL { (scratch ?? URL(fileURLWithPath: "/tmp")).appendingPathComponent(name) }

    /// `--compressed`: gzip is negotiated, fewer bytes travel, and curl's decoded output is the body.
    func testCompressedGet() throws {
        let body = file("body"), headers = file("headers")
        let result = try curl([
            "--compressed", "-o", body.path, "-D", headers.path, "-w", "%{http_code} %{size_download}", "\(base)/large",
        ])
        XCTAssertEqual(result.status, 0, result.summary)
        let fields = result.output.split(separator: " ")
        XCTAssertEqual(fields.first, "200", result.summary)
        let downloaded = Int(fields.last ?? "") ?? .max
        let size = Self.largeBody.utf8.count
        XCTAssertLessThan(downloaded, size / 10, "gzip should shrink \(size) bytes a lot: \(result.summary)")
        XCTAssertEqual(try String(contentsOf: body, encoding: .utf8), Self.largeBody)
        let head = try String(contentsOf: headers, encoding: .utf8).lowercased()
        XCTAssertTrue(head.contains("content-encoding: gzip"), head)
        XCTAssertTrue(head.contains("vary: accept-encoding"), head)

        // Without --compressed the body comes back as is.
        let plain = try curl(["-w", "\n%{size_download}", "\(base)/large"])
        XCTAssertEqual(plain.output, Self.largeBody + "\n\(size)")
    }

    /// `-I`: a HEAD request gets the GET's head (with its Content-Length) and no body.
    func testHead() throws {
        let result = try curl(["-I", "\(base)/large"])
        XCTAssertEqual(result.status, 0, result.summary)
        let lines = result.output.components(separatedBy: "\r\n")
        XCTAssertEqual(lines.first, "HTTP/1.1 200 OK", result.summary)
        XCTAssertTrue(lines.contains { $0.lowercased() == "content-length: \(Self.largeBody.utf8.count)" }, result.output)
        XCTAssertTrue(result.output.hasSuffix("\r\n\r\n"), "no body after the head: \(result.output)")
    }

    /// Two URLs on one command line share one keep-alive connection.
    func testKeepAliveReusesConnection() throws {
        let result = try curl(["-v", "\(base)/small", "\(base)/large"])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.output, "small\n" + Self.largeBody)
        // curl 7.x: "Re-using existing connection #0 with host"; 8.x: "Re-using existing http: connection".
        XCTAssertNotNil(result.errors.range(of: "Re-using existing (\\S+ )?connection", options: .regularExpression), result.errors)
        XCTAssertEqual(result.errors.components(separatedBy: "Connected to").count - 1, 1, result.errors)
    }

    /// `--http1.0`: the server answers without chunked coding and closes the connection.
    func testHTTP10() throws {
        let result = try curl(["--http1.0", "-v", "-D", "-", "\(base)/small"])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(result.output.hasPrefix("HTTP/1."), result.output)
        XCTAssertTrue(result.output.hasSuffix("\r\n\r\nsmall\n"), result.output)
        XCTAssertTrue(result.errors.contains("> GET /small HTTP/1.0"), result.errors)

        // A streamed body: no chunked coding for 1.0, the end of the body is the close.
        let stream = try curl(["--http1.0", "-D", "-", "\(base)/stream"])
        XCTAssertEqual(stream.status, 0, stream.summary)
        let parts = stream.output.components(separatedBy: "\r\n\r\n")
        XCTAssertEqual(parts.count, 2, stream.output)
        XCTAssertFalse(parts[0].lowercased().contains("transfer-encoding"), stream.output)
        XCTAssertEqual(parts.last, Self.streamChunks.joined())

        // The same route over 1.1 is chunked.
        let chunked = try curl(["-D", "-", "\(base)/stream"])
        XCTAssertTrue(chunked.output.lowercased().contains("transfer-encoding: chunked"), chunked.output)
        XCTAssertTrue(chunked.output.hasSuffix("\r\n\r\n" + Self.streamChunks.joined()), chunked.output)
    }

    /// `Expect: 100-continue`: the server says `100 Continue` before curl sends the body.
    func testExpectContinue() throws {
        let upload = file("upload")
        let payload = (0 ..< 300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try Data(payload).write(to: upload)
        let started = Date()
        let result = try curl([
            "-v", "--expect100-timeout", "10", "-H", "Expect: 100-continue", "-H", "Content-Type: application/octet-stream",
            "--data-binary", "@\(upload.path)", "\(base)/echo",
        ])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(result.errors.contains("> Expect: 100-continue"), result.errors)
        XCTAssertTrue(result.errors.contains("< HTTP/1.1 100 Continue"), result.errors)
        XCTAssertTrue(result.errors.contains("< HTTP/1.1 200 OK"), result.errors)
        XCTAssertEqual(Array(result.stdout), payload)
        // Without the 100, curl would sit out its 10 s expect timeout before sending the body.
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)

        // A chunked upload is echoed too.
        let chunked = try curl(["-H", "Transfer-Encoding: chunked", "--data-binary", "@\(upload.path)", "\(base)/echo"])
        XCTAssertEqual(Array(chunked.stdout), payload, chunked.summary)
    }

    /// Unknown paths get 404; a known path with a wrong method gets 405 with `Allow`.
    func testNotFoundAndMethodNotAllowed() throws {
        let notFound = try curl(["-w", "%{http_code}", "-o", "/dev/null", "\(base)/nope"])
        XCTAssertEqual(notFound.output, "404", notFound.summary)

        let wrongMethod = try curl(["-X", "DELETE", "-D", "-", "-o", "/dev/null", "\(base)/large"])
        XCTAssertTrue(wrongMethod.output.hasPrefix("HTTP/1.1 405 "), wrongMethod.output)
        let allow = wrongMethod.output.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("allow:") } ?? ""
        XCTAssertTrue(allow.contains("GET") && allow.contains("HEAD"), wrongMethod.output)

        let postToGet = try curl(["-w", "%{http_code}", "-o", "/dev/null", "--data", "x=1", "\(base)/small"])
        XCTAssertEqual(postToGet.output, "405", postToGet.summary)
    }
}

@testable import HTTPServer
import XCTest

final class HTTPRequestParserTests: XCTestCase {
    func testSimpleGet() throws {
        let parsed = requests("GET /api/users/heckj?x=1 HTTP/1.1\r\nHost: example.com\r\nAccept:  */*  \r\n\r\n")
        XCTAssertEqual(parsed.count, 1)
        let r = try XCTUnwrap(parsed.first)
        XCTAssertEqual(r.method, .get)
        XCTAssertEqual(r.target, "/api/users/heckj?x=1")
        XCTAssertEqual(r.version.major, 1)
        XCTAssertEqual(r.version.minor, 1)
        XCTAssertEqual(r.headers, ["Host": "example.com", "Accept": "*/*"])
        XCTAssertEqual(r.body, [])
    }

    func testHeadThenCompleteEvents() throws {
        var parser = HTTPRequestParser()
        let events = try parser.feed(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        XCTAssertEqual(events.count, 2)
        guard case .head(let head) = events[0], case .complete(let full) = events[1] else {
            return XCTFail("expected head then complete")
        }
        XCTAssertEqual(head.target, "/")
        XCTAssertEqual(full.target, "/")
    }

    func testExpectContinueHeadArrivesBeforeBody() throws {
        var parser = HTTPRequestParser()
        let headText = "POST /upload HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"
        let first = try parser.feed(Array(headText.utf8))
        XCTAssertEqual(first.count, 1)
        guard case .head(let head) = first.first else { return XCTFail("expected head") }
        XCTAssertTrue(head.expectsContinue)
        XCTAssertTrue(parser.hasPartialRequest)
        XCTAssertTrue(try parser.feed(Array("hel".utf8)).isEmpty)
        let rest = try parser.feed(Array("lo".utf8))
        guard case .complete(let request) = rest.first else { return XCTFail("expected complete") }
        XCTAssertEqual(request.body, Array("hello".utf8))
        XCTAssertFalse(parser.hasPartialRequest)
    }

    func testExpectContinueNotOnHTTP10() {
        let r = HTTPRequest(method: .post, target: "/", version: (1, 0), headers: ["Expect": "100-continue"])
        XCTAssertFalse(r.expectsContinue)
    }

    func testContentLengthBody() {
        let parsed = requests("POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello world")
        XCTAssertEqual(parsed.map(\.body), [Array("hello world".utf8)])
    }

    func testIdenticalContentLengthListIsAccepted() {
        let parsed = requests("POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\nabc")
        XCTAssertEqual(parsed.map(\.body), [Array("abc".utf8)])
    }

    func testChunkedBodyWithExtensionsAndTrailers() {
        let text = "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\nA ; x\r\n, world!!!\r\n0\r\nChecksum: abc\r\nOther: x\r\n\r\n"
        for piece in [nil, 1, 3, 7] as [Int?] {
            let parsed = requests(text, piece: piece)
            XCTAssertEqual(parsed.map(\.body), [Array("hello, world!!!".utf8)])
            XCTAssertEqual(parsed.first?.headers["Checksum"], nil, "trailers are dropped")
        }
    }

    func testGetWithoutLengthHasNoBody() {
        let parsed = requests("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertEqual(parsed.map(\.target), ["/a", "/b"])
        XCTAssertEqual(parsed.map(\.body), [[], []])
    }

    static let pipelinedPair = "GET /first HTTP/1.1\r\nHost: example.com\r\nAccept: text/html\r\n\r\n"
        + "POST /second HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer-Field: t\r\n\r\n"

    func testPipelinedPairByteAtATimeEqualsOneChunk() {
        let whole = requests(Self.pipelinedPair).map(RequestSummary.init)
        XCTAssertEqual(whole.count, 2)
        XCTAssertEqual(whole.map(\.target), ["/first", "/second"])
        XCTAssertEqual(whole.last?.body, Array("hello world".utf8))
        for piece in [1, 2, 5, 13, 64] {
            XCTAssertEqual(requests(Self.pipelinedPair, piece: piece).map(RequestSummary.init), whole, "piece \(piece)")
        }
    }

    func testPipelinedEventsInOrder() throws {
        var parser = HTTPRequestParser()
        var kinds: [String] = []
        for byte in Array(Self.pipelinedPair.utf8) {
            for event in try parser.feed([byte]) {
                switch event {
                case .head(let r): kinds.append("head \(r.target)")
                case .complete(let r): kinds.append("complete \(r.target)")
                }
            }
        }
        XCTAssertEqual(kinds, ["head /first", "complete /first", "head /second", "complete /second"])
    }

    func testEmptyLinesBeforeRequestLineAreIgnored() {
        XCTAssertEqual(requests("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n").count, 1)
    }

    func testHTTP10WithoutHostAndMinorVersionsAccepted() {
        XCTAssertEqual(requests("GET / HTTP/1.0\r\n\r\n").first?.version.minor, 0)
        XCTAssertEqual(requests("GET / HTTP/1.2\r\nHost: a\r\n\r\n").first?.version.minor, 2)
        XCTAssertEqual(requests("GET / HTTP/1.1\r\n\r\n", limits: HTTPParserLimits(requireHost: false)).count, 1)
    }

    func testUpgradeLeavesFollowingBytesUnparsed() throws {
        var parser = HTTPRequestParser()
        let frame: [UInt8] = [0x81, 0x85, 1, 2, 3, 4, 0x49, 0x67, 0x6F, 0x68, 0x6E]
        parser.append(Array("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8) + frame)
        guard case .head = try parser.next(), case .complete(let request) = try parser.next() else {
            return XCTFail("expected the upgrade request")
        }
        XCTAssertTrue(request.headers.contains("Connection", token: "upgrade"))
        XCTAssertEqual(parser.takeUnparsedBytes(), frame)
        XCTAssertNil(try parser.next())
    }

    func testErrorIsSticky() {
        var parser = HTTPRequestParser()
        XCTAssertThrowsError(try parser.feed(Array("BAD\r\n".utf8)))
        XCTAssertThrowsError(try parser.feed(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))) {
            XCTAssertEqual($0 as? HTTPParseError, .malformedRequestLine)
        }
    }

    func testLargeBodyArrivingInPiecesIsCopiedIntact() {
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let input = Array("PUT /big HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            + Array("GET /after HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        for piece in [4096, 65_536, 1000] {
            guard case .success(let parsed) = parseAll(input, piece: piece) else { return XCTFail("failed") }
            XCTAssertEqual(parsed.count, 2)
            XCTAssertEqual(parsed.first?.body, body)
            XCTAssertEqual(parsed.last?.target, "/after")
        }
    }

    func testChunkedBodyEncodedByOurEncoderRoundTrips() {
        var text = Array("POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let parts: [[UInt8]] = [Array(repeating: 7, count: 300), [1], Array(repeating: 9, count: 4096)]
        for part in parts { HTTPChunkedEncoding.appendChunk(part, to: &text) }
        text += HTTPChunkedEncoding.lastChunk
        guard case .success(let parsed) = parseAll(text, piece: 1) else { return XCTFail("failed") }
        XCTAssertEqual(parsed.first?.body, parts.flatMap { $0 })
    }

    /// Random and mutated inputs in random pieces: never traps, buffer stays bounded.
    func testRandomInputsNeverTrapAndStayBounded() {
        var rng = SplitMix64(seed: 42)
        let limits = HTTPParserLimits(maxRequestLineBytes: 256, maxHeaderBytes: 512, maxHeaderCount: 8, maxBodyBytes: 1024)
        let seeds = [Array(Self.pipelinedPair.utf8), Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd".utf8)]
        let alphabet = Array("GET /HTP1.:\r\n \t0123456789abcdefchunked;=,Content-LengthTransfer-Encoding".utf8) + [0, 0xFF]
        for _ in 0..<3000 {
            var input = seeds[Int(rng.next() % 2)]
            for _ in 0..<Int(rng.next() % 8) {
                let at = Int(rng.next() % UInt64(input.count))
                switch rng.next() % 3 {
                case 0: input[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: input.insert(contentsOf: repeatElement(alphabet[Int(rng.next() % UInt64(alphabet.count))], count: Int(rng.next() % 600)), at: at)
                default: input.remove(at: at)
                }
            }
            var parser = HTTPRequestParser(limits: limits)
            var start = 0
            while start < input.count {
                let end = Swift.min(input.count, start + 1 + Int(rng.next() % 40))
                parser.append(input[start..<end])
                start = end
                do { while try parser.next() != nil {} } catch { break }
                XCTAssertLessThanOrEqual(parser.buffer.count - parser.readIndex, 4200)
                XCTAssertLessThanOrEqual(parser.body.count, limits.maxBodyBytes)
            }
        }
    }
}

/// A small deterministic PRNG for reproducible fuzz-style tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

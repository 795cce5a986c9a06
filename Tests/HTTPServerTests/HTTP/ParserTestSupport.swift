@testable import HTTPServer
import XCTest

/// The complete requests (or the error) a parser yields for `input` fed in pieces of `piece` bytes.
func parseAll(
    _ input: [UInt8], limits: HTTPParserLimits = HTTPParserLimits(), piece: Int? = nil
) -> Result<[HTTPRequest], HTTPParseError> {
    var parser = HTTPRequestParser(limits: limits)
    var requests: [HTTPRequest] = []
    let size = piece ?? Swift.max(input.count, 1)
    var start = 0
    repeat {
        let end = Swift.min(start + size, input.count)
        do {
            for event in try parser.feed(input[start..<end]) {
                if case .complete(let request) = event { requests.append(request) }
            }
        } catch {
            return .failure(error)
        }
        start = end
    } while start < input.count
    return .success(requests)
}

func parseAll(_ text: String, limits: HTTPParserLimits = HTTPParserLimits(), piece: Int? = nil)
    -> Result<[HTTPRequest], HTTPParseError> {
    parseAll(Array(text.utf8), limits: limits, piece: piece)
}

/// A comparable summary of a request.
struct RequestSummary: Equatable {
    var method: String
    var target: String
    var major: Int
    var minor: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    init(_ r: HTTPRequest) {
        method = r.method.rawValue
        target = r.target
        major = r.version.major
        minor = r.version.minor
        headers = r.headers
        body = r.body
    }
}

/// Asserts `input` fails with `error` (and its status code) both whole and byte at a time.
func assertParseError(
    _ input: String, _ error: HTTPParseError, status: Int, limits: HTTPParserLimits = HTTPParserLimits(),
    file: StaticString = #filePath, line: UInt = #line
) {
    for piece in [nil, 1] as [Int?] {
        switch parseAll(input, limits: limits, piece: piece) {
        case .success(let requests):
            XCTFail("expected \(error), parsed \(requests.count) request(s) (piece \(String(describing: piece)))", file: file, line: line)
        case .failure(let actual):
            XCTAssertEqual(actual, error, "piece \(String(describing: piece))", file: file, line: line)
            XCTAssertEqual(actual.status.code, status, file: file, line: line)
        }
    }
}

/// The requests parsed from `input`, failing the test on error.
func requests(_ input: String, limits: HTTPParserLimits = HTTPParserLimits(), piece: Int? = nil,
              file: StaticString = #filePath, line: UInt = #line) -> [HTTPRequest] {
    switch parseAll(input, limits: limits, piece: piece) {
    case .success(let requests): return requests
    case .failure(let error):
        XCTFail("unexpected \(error)", file: file, line: line)
        return []
    }
}

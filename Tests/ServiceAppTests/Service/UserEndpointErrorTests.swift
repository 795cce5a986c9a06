import GithubProxy
import HTTPServer
import Logging
import XCTest

@testable import ServiceApp

/// `GET /api/users/{login}`'s 502s carry stable messages; the detail (a decoding error, a curl
/// error) is logged, never sent (issue #31: `/api/users/garbled` showed
/// `DecodingError.dataCorrupted: … Debug description: …`).
final class UserEndpointErrorTests: XCTestCase {
    func testA502SaysWhatHappenedInStableWordsAndLogsTheDetail() throws {
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        let detail = "undecodable user: DecodingError.dataCorrupted: Data was corrupted. Debug description: not JSON"
        let cases: [(GithubError, String)] = [
            (.invalidResponse(detail), "GitHub's answer could not be read"),
            (.unavailable("curl: Couldn't connect to server"), "GitHub could not be reached or answered with a server error"),
            (.rejected("Validation Failed"), "GitHub refused the request"),
        ]
        for (error, message) in cases {
            let response = UserEndpoint.response(for: error, login: "garbled", logger: logger)
            XCTAssertEqual(response.status, .badGateway)
            guard case .bytes(let bytes) = response.body else { return XCTFail("a streamed body") }
            let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String])
            XCTAssertEqual(body, ["error": "upstream_unavailable", "message": message])
        }
        XCTAssertTrue(records.lines.contains { $0.contains("login=garbled") && $0.contains("reason=\(detail)") }, "\(records.lines)")
        XCTAssertTrue(records.lines.contains { $0.contains("Couldn't connect to server") }, "\(records.lines)")
    }
}

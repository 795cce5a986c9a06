import Foundation
import HTTPServer

/// JSON bodies of the REST endpoints.
enum JSONResponse {
    /// A JSON response with `value` encoded (keys sorted, slashes unescaped).
    static func make<T: Encodable>(_ status: HTTPStatus, _ value: T, headers: HTTPHeaders = [:]) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var response = HTTPResponse(status: status, headers: headers, body: .bytes(Array(body)))
        response.headers.set("Content-Type", "application/json")
        return response
    }

    /// `{"error": code, "message": message}`.
    static func error(_ status: HTTPStatus, _ code: String, _ message: String? = nil, headers: HTTPHeaders = [:]) -> HTTPResponse {
        make(status, ErrorBody(error: code, message: message), headers: headers)
    }

    /// The `error` code of a refusal the HTTP server makes itself (malformed or timed-out
    /// requests, refused WebSocket handshakes, upgrades while draining).
    static func serverErrorCode(_ status: HTTPStatus) -> String {
        switch status.code {
        case 408: "request_timeout"
        case 426: "upgrade_required"
        case 503: "shutting_down"
        default: "bad_request"
        }
    }

    private struct ErrorBody: Encodable {
        let error: String
        let message: String?
    }
}

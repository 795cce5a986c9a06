import Foundation
import GithubProxy

/// A server → client event of the `/ws` protocol: one JSON object, one line, one text frame.
enum ServerEvent: Equatable {
    case hello(throttleMs: Int, minLength: Int)
    case activity(active: Bool)
    case result(LookupResult)
    case error(code: String, message: String)

    /// The event as the single-line JSON text the contract defines.
    var json: String {
        let data: Data
        switch self {
        case .hello(let throttleMs, let minLength):
            data = Self.encode(Hello(type: "hello", pipeline: "github-user", throttleMs: throttleMs, minLength: minLength))
        case .activity(let active):
            data = Self.encode(Activity(type: "activity", active: active))
        case .result(let result):
            data = Self.encode(Result(
                type: "result", query: result.query, status: result.status.rawValue, users: result.users,
                stale: result.stale ? true : nil, scope: result.limitedByClient ? "client" : nil
            ))
        case .error(let code, let message):
            data = Self.encode(ErrorEvent(type: "error", code: code, message: message))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// One event object as compact JSON with sorted keys (shared by every pipeline's events).
    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structs cannot fail.
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    private struct Hello: Encodable {
        let type: String, pipeline: String, throttleMs: Int, minLength: Int
    }

    private struct Activity: Encodable {
        let type: String, active: Bool
    }

    private struct Result: Encodable {
        let type: String, query: String, status: String, users: [GithubUser]
        /// Present (true) only for a cached copy served because GitHub failed.
        let stale: Bool?
        /// `"client"` when `rate_limited` by this client's own allowance (fair use).
        let scope: String?
    }

    private struct ErrorEvent: Encodable {
        let type: String, code: String, message: String
    }
}

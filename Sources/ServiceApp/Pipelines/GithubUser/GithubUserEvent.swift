import Foundation
import GithubProxy

/// A server → client event of the github-user pipeline (`/ws`): one JSON object, one line, one
/// text frame.
enum GithubUserEvent: Equatable {
    case hello(throttleMs: Int, minLength: Int)
    case activity(active: Bool)
    case result(LookupResult)
    case error(code: String, message: String)

    /// The event as the single-line JSON text the contract defines.
    var json: String {
        let data: Data
        switch self {
        case .hello(let throttleMs, let minLength):
            data = EventJSON.encode(Hello(type: "hello", pipeline: PipelineDescriptor.githubUser.name, throttleMs: throttleMs, minLength: minLength))
        case .activity(let active):
            data = EventJSON.encode(Activity(type: "activity", active: active))
        case .result(let result):
            data = EventJSON.encode(Result(
                type: "result", query: result.query, status: result.status.rawValue, users: result.users,
                stale: result.stale ? true : nil, scope: result.limitedByClient ? "client" : nil
            ))
        case .error(let code, let message):
            data = EventJSON.encode(ErrorEvent(type: "error", code: code, message: message))
        }
        return String(decoding: data, as: UTF8.self)
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

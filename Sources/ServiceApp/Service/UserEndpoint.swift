import GithubProxy
import HTTPServer
import Logging
import StreamCore

/// `GET /api/users/{login}`: the same client, retry policy and cache as the `/ws` pipeline. Every
/// `200` says where it came from in an RFC 9211 `Cache-Status` header; a copy served from the
/// cache also carries `Age` (a stale one, served because GitHub failed, says
/// `detail=stale-if-error`).
///
/// Error bodies carry stable messages; what went wrong in detail (a decoding error, a curl
/// error) goes to the log only, never to clients.
enum UserEndpoint {
    /// The cache's name in `Cache-Status`.
    static let cacheName = "serviceapp"

    /// The stable messages of `502 upstream_unavailable`, by what happened.
    enum UnavailableMessage {
        static let unreachable = "GitHub could not be reached or answered with a server error"
        static let unreadable = "GitHub's answer could not be read"
        static let rejected = "GitHub refused the request"
        static let failed = "the lookup failed"
    }

    static func respond(
        to request: HTTPRequest, client: GithubClient, quota: (any UpstreamQuota)? = nil, logger: Logger
    ) async -> HTTPResponse {
        let login = request.pathParameters["login"] ?? ""
        guard GithubLogin.isValid(login) else {
            return JSONResponse.error(
                .badRequest, "invalid_login",
                "a GitHub login is 1-39 letters, digits and single hyphens, not starting or ending with a hyphen"
            )
        }
        do {
            let answer = try await client.userAnswer(login: login, quota: quota).first().values.first { _ in true }
            guard let answer else { return JSONResponse.error(.badGateway, "upstream_unavailable", UnavailableMessage.failed) }
            var response = JSONResponse.make(.ok, answer.value)
            response.headers.set("Cache-Status", answer.cacheStatus(cacheName: cacheName))
            if answer.source == .fresh || answer.source == .stale { response.headers.set("Age", String(answer.age)) }
            return response
        } catch let error as GithubError {
            return response(for: error, login: login, logger: logger)
        } catch {
            logger.notice("user lookup failed", metadata: ["login": "\(login)", "reason": "\(error)"])
            return JSONResponse.error(.badGateway, "upstream_unavailable", UnavailableMessage.failed)
        }
    }

    /// The response for a failed lookup of `login`; a 502's detail is logged, not sent.
    static func response(for error: GithubError, login: String, logger: Logger) -> HTTPResponse {
        switch error {
        case .notFound:
            return JSONResponse.error(.notFound, "not_found")
        case .rateLimited(let seconds):
            return JSONResponse.error(.tooManyRequests, "rate_limited", headers: ["Retry-After": "\(seconds)"])
        case .clientRateLimited(let seconds):
            return JSONResponse.error(
                .tooManyRequests, "client_rate_limited", "this client's upstream lookups per minute are spent",
                headers: ["Retry-After": "\(seconds)"]
            )
        case .timeout:
            return JSONResponse.error(.gatewayTimeout, "upstream_timeout")
        case .unavailable(let reason):
            return unavailable(UnavailableMessage.unreachable, reason: reason, login: login, logger: logger)
        case .invalidResponse(let reason):
            return unavailable(UnavailableMessage.unreadable, reason: reason, login: login, logger: logger)
        case .rejected(let reason):
            return unavailable(UnavailableMessage.rejected, reason: reason, login: login, logger: logger)
        }
    }

    private static func unavailable(_ message: String, reason: String, login: String, logger: Logger) -> HTTPResponse {
        logger.notice("user lookup failed: \(message)", metadata: ["login": "\(login)", "reason": "\(reason)"])
        return JSONResponse.error(.badGateway, "upstream_unavailable", message)
    }
}

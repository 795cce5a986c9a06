import GithubProxy
import HTTPServer
import StreamCore

/// `GET /api/users/{login}`: the same client, retry policy and cache as the `/ws` pipeline. Every
/// `200` says where it came from in an RFC 9211 `Cache-Status` header; a copy served from the
/// cache also carries `Age` (a stale one, served because GitHub failed, says
/// `detail=stale-if-error`).
enum UserEndpoint {
    /// The cache's name in `Cache-Status`.
    static let cacheName = "serviceapp"

    static func respond(to request: HTTPRequest, client: GithubClient, quota: (any UpstreamQuota)? = nil) async -> HTTPResponse {
        let login = request.pathParameters["login"] ?? ""
        guard GithubLogin.isValid(login) else {
            return JSONResponse.error(
                .badRequest, "invalid_login",
                "a GitHub login is 1-39 letters, digits and single hyphens, not starting or ending with a hyphen"
            )
        }
        do {
            let answer = try await client.userAnswer(login: login, quota: quota).first().values.first { _ in true }
            guard let answer else { return JSONResponse.error(.badGateway, "upstream_unavailable") }
            var response = JSONResponse.make(.ok, answer.value)
            response.headers.set("Cache-Status", answer.cacheStatus(cacheName: cacheName))
            if answer.source == .fresh || answer.source == .stale { response.headers.set("Age", String(answer.age)) }
            return response
        } catch let error as GithubError {
            return response(for: error)
        } catch {
            return JSONResponse.error(.badGateway, "upstream_unavailable", "\(error)")
        }
    }

    static func response(for error: GithubError) -> HTTPResponse {
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
        case .unavailable(let reason), .invalidResponse(let reason), .rejected(let reason):
            return JSONResponse.error(.badGateway, "upstream_unavailable", reason)
        }
    }
}

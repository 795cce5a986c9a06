/// Why a lookup did not produce a user.
public enum GithubError: Error, Equatable, Sendable {
    /// GitHub says there is no such user (404).
    case notFound
    /// GitHub's rate limit is spent; try again after this many seconds.
    case rateLimited(retryAfterSeconds: Int)
    /// This caller's own allowance (`UpstreamQuota`) is spent; nothing was sent. Try again after
    /// this many seconds.
    case clientRateLimited(retryAfterSeconds: Int)
    /// GitHub did not answer in time.
    case timeout
    /// GitHub could not be reached or answered with a server error.
    case unavailable(String)
    /// GitHub answered something this client cannot read (unexpected status or body).
    case invalidResponse(String)
    /// GitHub refused the request as invalid (422, e.g. a search query it cannot parse).
    case rejected(String)

    /// The failure an answer with another status than the caller expects means: a spent rate
    /// limit (403/429 with `rateLimitWait` from the budget), a server error (5xx), else an
    /// answer this client cannot read.
    init(statusCode: Int, rateLimitWait: Int?) {
        switch statusCode {
        case 403, 429:
            self = rateLimitWait.map { .rateLimited(retryAfterSeconds: $0) } ?? .invalidResponse("HTTP \(statusCode)")
        case 500...599:
            self = .unavailable("HTTP \(statusCode)")
        default:
            self = .invalidResponse("HTTP \(statusCode)")
        }
    }

    /// Whether trying again may help: connection errors, timeouts and 5xx answers.
    public var isTransient: Bool {
        switch self {
        case .timeout, .unavailable: true
        case .notFound, .rateLimited, .clientRateLimited, .invalidResponse, .rejected: false
        }
    }
}

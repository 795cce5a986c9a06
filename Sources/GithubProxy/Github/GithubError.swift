/// Why a lookup did not produce a user.
public enum GithubError: Error, Equatable, Sendable {
    /// GitHub says there is no such user (404).
    case notFound
    /// GitHub's rate limit is spent; try again after this many seconds.
    case rateLimited(retryAfterSeconds: Int)
    /// GitHub did not answer in time.
    case timeout
    /// GitHub could not be reached or answered with a server error.
    case unavailable(String)
    /// GitHub answered something this client cannot read (unexpected status or body).
    case invalidResponse(String)
    /// GitHub refused the request as invalid (422, e.g. a search query it cannot parse).
    case rejected(String)

    /// Whether trying again may help: connection errors, timeouts and 5xx answers.
    public var isTransient: Bool {
        switch self {
        case .timeout, .unavailable: true
        case .notFound, .rateLimited, .invalidResponse, .rejected: false
        }
    }
}

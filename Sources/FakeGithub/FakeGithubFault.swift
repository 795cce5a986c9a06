/// What the fake does instead of (or on the way to) its normal answer for a login.
public enum FakeGithubFault: Sendable, Equatable {
    /// Answers this status with GitHub's JSON error body (404, 500, 502, 503, …).
    case status(Int)
    /// Answers 403 or 429 with `x-ratelimit-remaining: 0`, `x-ratelimit-reset` this many seconds
    /// ahead, and `Retry-After` when given.
    case rateLimited(status: Int, retryAfterSeconds: Int?, resetInSeconds: Int)
    /// Sends the normal answer's head at once and its body after this long, trickling a space
    /// (JSON whitespace) every 50 ms meanwhile — so a client that gives up is noticed as a
    /// closed connection at once, not when the delay ends. An answer with no body to trickle
    /// (`304 Not Modified`, `404`) is sent whole once the delay has passed.
    case delay(Duration)
    /// Sends the head and the first half of the normal body, then closes the connection.
    case resetMidBody
    /// Answers 200 with a body that is not JSON.
    case invalidJSON
    /// GitHub's secondary rate limit: 403 (or 429) whose message says "You have exceeded a
    /// secondary rate limit", with `Retry-After` when given, while `x-ratelimit-remaining` still
    /// says there is quota.
    case secondaryRateLimited(status: Int, retryAfterSeconds: Int?)

    /// `.rateLimited` as GitHub's primary limit answers: 403, reset in a minute, no `Retry-After`.
    public static let rateLimitExceeded = FakeGithubFault.rateLimited(status: 403, retryAfterSeconds: nil, resetInSeconds: 60)
}

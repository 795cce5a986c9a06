import Dispatch
import Foundation
import SharedState
@_spi(ServerSupport) import StreamCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request to GitHub as the lookup and the search send it: what to send, and how to read
/// the answer (status check, decoding, the cache), both made when the attempt starts.
struct UpstreamRequest<Value> {
    var request: URLRequest
    /// The seed's `tryMap` + `decode`, plus the cache: throws a `GithubError`.
    var answer: (Data, CurlResponseHead) throws -> Value
}

extension GithubClient {
    /// One upstream attempt spending `resource` (`core`, `search`), for user lookups and searches
    /// alike, through its stages in order:
    /// the gate (at most `gate.limit` requests in flight), the budget (no request while the
    /// resource is paused here, or, with a shared store, spent or paused for all replicas),
    /// and the transfer (the request, `answer`, the request's metrics). `prepare` runs once
    /// the gate and budget let the attempt through.
    func upstreamAttempt<Value>(
        _ resource: String, _ prepare: @escaping () -> UpstreamRequest<Value>
    ) -> AnyPublisher<Value, GithubError> {
        gate.admit { [self] () -> AnyPublisher<Value, GithubError> in
            if let paused: AnyPublisher<Value, GithubError> = pausedFailure(resource) { return paused }
            return whenSharedBudgetAllows(resource) { [self] in transfer(prepare()) }
        }
    }

    /// The transfer stage: the request through libcurl, its answer read by `upstream.answer`,
    /// and its outcome and duration for metrics (`ok` when the answer comes through).
    func transfer<Value>(_ upstream: UpstreamRequest<Value>) -> AnyPublisher<Value, GithubError> {
        let started = ContinuousClock.now
        return http.responseHeadPublisher(for: upstream.request)
            .mapError(GithubError.init(urlError:))
            .tryMap { data, head in try upstream.answer(data, head) }
            .mapError { $0 as? GithubError ?? .invalidResponse("\($0)") }
            .reportingOutcome(to: events, since: started)
            .eraseToAnyPublisher()
    }

    /// The local answer while `resource` is paused: no request goes out.
    func pausedFailure<Value>(_ resource: String) -> AnyPublisher<Value, GithubError>? {
        guard let wait = rateLimits.budget(for: resource).secondsUntilReset() else { return nil }
        events.requested(outcome: "rate_limited_locally")
        return Fail(error: .rateLimited(retryAfterSeconds: wait)).eraseToAnyPublisher()
    }

    /// `request`, once the replicas' shared budget of `resource` gives it one request; a spent or
    /// paused shared budget fails `rateLimited` without a request, and pauses this replica's
    /// budget as long. Without a shared store (or with it unreachable) `request` runs at once.
    func whenSharedBudgetAllows<Value>(
        _ resource: String, _ request: @escaping () -> AnyPublisher<Value, GithubError>
    ) -> AnyPublisher<Value, GithubError> {
        guard let sharedRateLimits else { return request() }
        return callbackPublisher { sharedRateLimits.take(RateLimits.name(of: resource), completion: $0) }
            .setFailureType(to: GithubError.self)
            .flatMap(maxPublishers: .max(1)) { [self] wait -> AnyPublisher<Value, GithubError> in
                guard let wait else { return request() }
                rateLimits.budget(for: resource).pause(seconds: wait)
                events.requested(outcome: "rate_limited_shared")
                return Fail(error: .rateLimited(retryAfterSeconds: wait)).eraseToAnyPublisher()
            }
            .eraseToAnyPublisher()
    }

    /// Reads the rate-limit headers of a response into the budget of the resource it names
    /// (`expected` when it names none), and shares them; returns the pause it began, if any.
    func readLimits(_ response: CurlResponseHead, body: Data, expected: String) -> RateLimitBudget.Pause? {
        let header = { (name: String) in response.value(forHTTPHeaderField: name) }
        let resource = header("x-ratelimit-resource") ?? expected
        let pause = rateLimits.budget(for: resource).read(statusCode: response.statusCode, header: header, body: body)
        if let pause { events.paused(resource: resource, pause: pause) }
        if let sharedRateLimits {
            let reading = RateLimitReading(
                remaining: header("x-ratelimit-remaining").flatMap { Int($0) },
                reset: header("x-ratelimit-reset").flatMap { TimeInterval($0) }.map(Date.init(timeIntervalSince1970:)),
                pauseSeconds: pause?.seconds
            )
            sharedRateLimits.record(RateLimits.name(of: resource), reading)
        }
        return pause
    }
}

extension GithubError {
    /// Classifies a transport error.
    init(urlError: URLError) {
        switch urlError.code {
        case .timedOut: self = .timeout
        default: self = .unavailable(urlError.localizedDescription)
        }
    }
}

extension Subscribers.Completion where Failure == GithubError {
    /// The metrics label of an upstream request's outcome.
    var outcome: String {
        switch self {
        case .finished: "ok"
        case .failure(.notFound): "not_found"
        case .failure(.rateLimited): "rate_limited"
        case .failure(.clientRateLimited): "client_rate_limited"
        case .failure(.timeout): "timeout"
        case .failure(.unavailable): "unavailable"
        case .failure(.invalidResponse): "invalid_response"
        case .failure(.rejected): "rejected"
        }
    }
}

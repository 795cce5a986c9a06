@_spi(ServerSupport) import StreamCore

extension GithubClient {
    /// The quota stage: `request` once one request is charged to the caller's `quota` (nil: no
    /// quota, at once). Refused, no request goes out: `refused` runs and the answer is
    /// `clientRateLimited` with the quota's wait.
    func charged<Value>(
        to quota: (any UpstreamQuota)?, refused: @escaping () -> Void = {},
        _ request: @escaping () -> AnyPublisher<Value, GithubError>
    ) -> AnyPublisher<Value, GithubError> {
        guard let quota else { return Deferred(createPublisher: request).eraseToAnyPublisher() }
        return callbackPublisher { quota.spend(completion: $0) }
            .setFailureType(to: GithubError.self)
            .flatMap(maxPublishers: .max(1)) { [events] wait -> AnyPublisher<Value, GithubError> in
                guard let wait else { return request() }
                refused()
                events.requested(outcome: "client_rate_limited")
                return Fail(error: .clientRateLimited(retryAfterSeconds: wait)).eraseToAnyPublisher()
            }
            .eraseToAnyPublisher()
    }

    /// The answer of a lookup that would go out but is known at once to be refused: `resource`
    /// paused here (its rate limit spent), or `quota` spent. Nil otherwise. Asked before the
    /// activity stage, so such a lookup fails `rateLimited` or `clientRateLimited` without
    /// `activity` events and without being charged — `activity:true` means a request goes out.
    /// A caller that would join a request in flight passes no `quota` and no `resource`: joining
    /// is free, and that request went out before any pause.
    func refusedAtOnce<Value>(_ resource: String?, quota: (any UpstreamQuota)?) -> AnyPublisher<Value, GithubError>? {
        if let resource, let paused: AnyPublisher<Value, GithubError> = pausedFailure(resource) { return paused }
        guard let wait = quota?.refusalIfSpent() else { return nil }
        events.requested(outcome: "client_rate_limited")
        return Fail(error: .clientRateLimited(retryAfterSeconds: wait)).eraseToAnyPublisher()
    }
}

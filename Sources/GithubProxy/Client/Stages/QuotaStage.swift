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
}

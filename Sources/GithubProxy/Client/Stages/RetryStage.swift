import Foundation
import Synchronization
import StreamCore

extension GithubClient {
    /// The retry stage: `attempt` with the retry policy. Transient failures are retried after a
    /// backoff delay on `scheduler` (re-subscribing to a fresh attempt); other failures pass
    /// through at once. `label` names the lookup in retry events.
    func withRetries<Value>(
        label: String, _ attempt: @escaping () -> AnyPublisher<Value, GithubError>
    ) -> AnyPublisher<Value, GithubError> {
        let policy = configuration.retry
        return Deferred { [self] in
            let attempts = AttemptCounter()
            return Deferred(createPublisher: attempt)
                .map { Result<Value, GithubError>.success($0) }
                // Non-transient failures become values so that `retry` only sees transient ones;
                // a transient failure is re-raised after the backoff delay, and `retry`
                // re-subscribes to the whole attempt.
                .catch { [self] error -> AnyPublisher<Result<Value, GithubError>, GithubError> in
                    let retry = attempts.next()
                    guard error.isTransient, retry < policy.maxRetries else {
                        return Just(.failure(error)).setFailureType(to: GithubError.self).eraseToAnyPublisher()
                    }
                    events.retried(login: label, error: error)
                    let delay = policy.delay(beforeRetry: retry, random: random())
                    return Fail(error: error).delay(for: .milliseconds(Int(delay / .milliseconds(1))), scheduler: scheduler)
                        .eraseToAnyPublisher()
                }
                .retry(policy.maxRetries)
                .flatMap { $0.publisher }
        }
        .eraseToAnyPublisher()
    }
}

/// Counts attempts of one lookup (the catch closure may run on different threads).
private final class AttemptCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// Returns the number of failures before this one.
    func next() -> Int { count.add(1, ordering: .relaxed).oldValue }
}

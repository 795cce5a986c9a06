import Foundation
import StreamCore

extension GithubClient {
    /// The seed's `GithubAPI.retrieveGithubUser(username:)`: never fails, and says why the list is
    /// empty.
    ///
    /// - input shorter than `minLength` → `too_short`, without a request (the seed's `Just([])`);
    /// - not a valid login → `invalid`, without a request;
    /// - else the upstream lookup, with `activity` told when it starts and when it completes or
    ///   is cancelled (the seed's `handleEvents` feeding `networkActivityPublisher`), decoded,
    ///   retried, and caught into an empty list with the matching status.
    public func retrieveGithubUser(username: String, activity: NetworkActivity? = nil) -> AnyPublisher<LookupResult, Never> {
        guard username.count >= configuration.minLength else {
            return Just(LookupResult(query: username, status: .tooShort)).eraseToAnyPublisher()
        }
        guard GithubLogin.isValid(username) else {
            return Just(LookupResult(query: username, status: .invalid)).eraseToAnyPublisher()
        }
        return Deferred { [self] in
            let token = ActivityToken()
            return user(login: username)
                .handleEvents(
                    receiveSubscription: { _ in token.value = activity?.begin() },
                    receiveCompletion: { _ in token.take().map { activity?.end($0) } },
                    receiveCancel: { token.take().map { activity?.end($0) } }
                )
                .map { LookupResult(query: username, status: .found, users: [$0]) }
                .catch { Just(LookupResult(query: username, failure: $0)) }
        }
        .eraseToAnyPublisher()
    }
}

/// The activity of one subscription; ended at most once.
final class ActivityToken: @unchecked Sendable {
    // Sendable: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: NetworkActivity.Token?

    var value: NetworkActivity.Token? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func take() -> NetworkActivity.Token? {
        lock.withLock {
            defer { stored = nil }
            return stored
        }
    }
}
